#include "engine/CostModel.h"

#include <algorithm>
#include <cmath>

namespace kl::sim {

namespace {

bool isFp32(DType d) {
    return d == DType::Float32;
}

// Buffers are read through KernelIr::bufferFacts(): compact, so costing an instruction does not miss the
// cache on a Buffer's name and shape.
std::int64_t operandPartitions(const KernelIr& ir, const AccessPattern& ap) {
    const BufferFacts& b = ir.bufferFacts()[ap.buffer];
    if (b.memory == Memory::Hbm) {
        const auto dims = ir.pattern(ap);
        return dims.empty() ? 1 : dims.front().count;
    }
    return ap.partCount;
}

} // namespace

CostModel::CostModel(const HardwareProfile& hw) : m_hw(hw) {}

double CostModel::freeElements(const KernelIr& ir, const Instruction& in) {
    const auto dst = ir.dsts(in);
    if (!dst.empty() && dst.front().buffer != kNoIndex) {
        const std::int64_t parts = std::max<std::int64_t>(operandPartitions(ir, dst.front()), 1);
        if (in.elements > 0) {
            return static_cast<double>(in.elements) / static_cast<double>(parts);
        }
        return static_cast<double>(elementCount(ir, dst.front()));
    }
    const auto src = ir.srcs(in);
    if (!src.empty() && src.front().buffer != kNoIndex) {
        return static_cast<double>(elementCount(ir, src.front()));
    }
    return static_cast<double>(std::max<std::int64_t>(in.elements, 1));
}

CostModel::MatmulCycles CostModel::matmul(const KernelIr& ir, const Instruction& in) const {
    const auto& c = m_hw.costs;
    const auto src = ir.srcs(in);
    const auto dst = ir.dsts(in);
    // Tile sizes from attrs when the front end gave them, else from the operands: stationary = src[0]
    // (contraction x stationary_free), moving = src[1] (contraction x moving_free).
    double moving = in.attrs.movingFree;
    double stationary = in.attrs.stationaryFree;
    double contraction = in.attrs.contraction;
    if (moving == 0) {
        moving = src.size() > 1 ? static_cast<double>(elementCount(ir, src[1])) : freeElements(ir, in);
    }
    if (stationary == 0) {
        stationary = src.size() > 0 ? static_cast<double>(elementCount(ir, src[0]))
                                    : (dst.empty() ? c.peCols : static_cast<double>(dst[0].partCount));
    }
    if (contraction == 0) {
        contraction = src.empty() ? c.peRows : static_cast<double>(src[0].partCount);
    }
    DType inType = in.attrs.dtypeIn;
    if (inType == DType::Unknown && !src.empty()) {
        inType = src[0].dtype != DType::Unknown ? src[0].dtype : ir.bufferFacts()[src[0].buffer].dtype;
    }
    const double factor = isFp32(inType) ? c.fp32MatmulFactor : 1.0;
    MatmulCycles out;
    out.multiplyMoving = std::max(moving, c.matmulMinInterval) * factor;
    out.loadStationary = stationary / c.loadStationarySpeedup * factor;
    out.flops = 2.0 * contraction * stationary * moving;
    return out;
}

bool CostModel::tensorTensorFastPath(const KernelIr& ir, const Instruction& in) const {
    const auto src = ir.srcs(in);
    bool allBf16Sbuf = !src.empty();
    for (const AccessPattern& ap : src) {
        const BufferFacts& b = ir.bufferFacts()[ap.buffer];
        if (b.memory == Memory::Psum) {
            return true;
        }
        const DType d = ap.dtype != DType::Unknown ? ap.dtype : b.dtype;
        const auto dims = ir.pattern(ap);
        const bool contiguous = dims.empty() || dims.back().stride == 1;
        allBf16Sbuf = allBf16Sbuf && b.memory == Memory::Sbuf && d == DType::BFloat16 && contiguous;
    }
    const AluOp op = in.attrs.op0;
    const bool simpleOp = op == AluOp::Add || op == AluOp::Subtract || op == AluOp::Multiply || op == AluOp::None;
    return allBf16Sbuf && simpleOp;
}

double CostModel::cycles(const KernelIr& ir, const Instruction& in) const {
    const auto& c = m_hw.costs;
    const double n = freeElements(ir, in);
    switch (in.op) {
    case Op::NcTranspose: {
        const auto src = ir.srcs(in);
        const double p = src.empty() ? c.peRows : static_cast<double>(src[0].partCount);
        const double f = src.empty() ? n : static_cast<double>(elementCount(ir, src[0]));
        return std::max(p, std::min(64.0, f));
    }
    case Op::TensorTensor: return std::max(c.minIi, tensorTensorFastPath(ir, in) ? n : c.tensorTensorSlowFactor * n);
    case Op::TensorTensorScan: // not in the guide: costed like the slow tensor_tensor path (docs/simulator.md)
        return std::max(c.minIi, c.tensorTensorSlowFactor * n);
    case Op::TensorReduce: {
        const auto src = ir.srcs(in);
        const DType d = src.empty()
                            ? DType::Unknown
                            : (src[0].dtype != DType::Unknown ? src[0].dtype : ir.bufferFacts()[src[0].buffer].dtype);
        const bool fast = d == DType::BFloat16 && (in.attrs.op0 == AluOp::Add || in.attrs.op0 == AluOp::Max);
        // N is the input size per partition for a reduction (the output is one element per partition).
        const double inN = src.empty() ? n : static_cast<double>(elementCount(ir, src[0]));
        return fast ? inN / c.reduceFastDivisor : inN;
    }
    case Op::ActivationReduce: return std::max(c.minIi, n) + c.minIi;
    case Op::BnStats: return std::max(c.minIi, n);
    case Op::BnAggr: return std::max(c.minIi, c.bnAggrFactor * n);
    case Op::Reciprocal: return std::max(c.minIi, c.reciprocalFactor * n);
    case Op::Iota:
    case Op::AffineSelect: return c.gpsimdStartup + n;
    case Op::NcMatmul: return matmul(ir, in).multiplyMoving;
    case Op::Activation:
    case Op::TensorScalar:
    case Op::TensorCopy:
    case Op::Memset:
    case Op::Select:
    case Op::DmaCopy:
    case Op::Unknown:
    case Op::Count: break;
    }
    return std::max(c.minIi, n);
}

double CostModel::ghz(Engine engine) const {
    switch (engine) {
    case Engine::Tensor: return m_hw.tensorGhz;
    case Engine::Vector: return m_hw.vectorGhz;
    case Engine::Scalar: return m_hw.scalarGhz;
    case Engine::GpSimd: return m_hw.gpsimdGhz;
    case Engine::Dma:
    case Engine::Count: break;
    }
    return 1.0;
}

TimePs CostModel::toPs(double cycles, Engine engine) const {
    return durationPs(std::ceil(cycles * 1000.0 / ghz(engine)));
}

} // namespace kl::sim
