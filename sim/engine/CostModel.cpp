#include "engine/CostModel.h"

#include "engine/OpCostTable.h"

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

DType operandType(const KernelIr& ir, const AccessPattern& ap) {
    return ap.dtype != DType::Unknown ? ap.dtype : ir.bufferFacts()[ap.buffer].dtype;
}

} // namespace

CostModel::CostModel(const HardwareProfile& hw) : m_hw(hw) {}

double CostModel::freeElements(const KernelIr& ir, const Instruction& in) {
    const auto dst = ir.dsts(in);
    if (!dst.empty() && dst.front().buffer != AccessPattern::kNoBuffer) {
        const std::int64_t parts = std::max<std::int64_t>(operandPartitions(ir, dst.front()), 1);
        if (in.elements > 0) {
            return static_cast<double>(in.elements) / static_cast<double>(parts);
        }
        return static_cast<double>(elementCount(ir, dst.front()));
    }
    const auto src = ir.srcs(in);
    if (!src.empty() && src.front().buffer != AccessPattern::kNoBuffer) {
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
    double moving = ir.attrs(in).movingFree;
    double stationary = ir.attrs(in).stationaryFree;
    double contraction = ir.attrs(in).contraction;
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
    DType inType = ir.attrs(in).dtypeIn;
    if (inType == DType::Unknown && !src.empty()) {
        inType = operandType(ir, src[0]);
    }
    const double factor = isFp32(inType) ? c.fp32MatmulFactor : 1.0;
    MatmulCycles out;
    // ISA nc_matmul: max(min(64, N_stationary), N_moving); the 64 is the profile's matmul_min_interval.
    out.multiplyMoving = std::max(moving, std::min(c.matmulMinInterval, stationary)) * factor;
    out.loadStationary = stationary / c.loadStationarySpeedup * factor;
    // An MX matmul packs mx_matmul_speedup values per element along the contraction: same cycles, more FLOPs.
    const double packed = ir.attrs(in).isa == IsaCall::MatmulMx ? c.mxMatmulSpeedup : 1.0;
    out.flops = 2.0 * contraction * packed * stationary * moving;
    return out;
}

CostModel::Operands CostModel::operands(const KernelIr& ir, const Instruction& in) {
    Operands o;
    bool isDst = true;
    for (const auto list : {ir.dsts(in), ir.srcs(in)}) {
        for (const AccessPattern& ap : list) {
            const BufferFacts& b = ir.bufferFacts()[ap.buffer];
            const DType d = ap.dtype != DType::Unknown ? ap.dtype : b.dtype;
            const auto dims = ir.pattern(ap);
            o.anyPsum = o.anyPsum || b.memory == Memory::Psum;
            o.allSbuf = o.allSbuf && b.memory == Memory::Sbuf;
            o.all16Bit = o.all16Bit && (d == DType::BFloat16 || d == DType::Float16);
            o.allBf16 = o.allBf16 && d == DType::BFloat16;
            const bool unit = dims.empty() || dims.back().stride == 1;
            o.contiguous = o.contiguous && unit;
            o.srcContiguous = o.srcContiguous && (isDst || unit);
        }
        isDst = false;
    }
    return o;
}

double CostModel::tensorTensorCycles(const KernelIr& ir, const Instruction& in, double n) const {
    const auto& c = m_hw.costs;
    const Operands o = operands(ir, in);
    const bool srcPsum = [&] {
        for (const AccessPattern& ap : ir.srcs(in)) {
            if (ir.bufferFacts()[ap.buffer].memory == Memory::Psum) {
                return true;
            }
        }
        return false;
    }();
    double cyclesN = c.tensorTensorSlowFactor * n;
    if (ir.attrs(in).isa == IsaCall::ScalarTensorTensor) {
        // ISA scalar_tensor_tensor: N for BF16 data, subtract then multiply, N even; else 2N (no MIN_II floor).
        const bool fast = o.allBf16 && ir.attrs(in).op0 == AluOp::Subtract && ir.attrs(in).op1 == AluOp::Multiply &&
                          std::fmod(n, 2.0) == 0.0;
        return fast ? n : c.tensorTensorSlowFactor * n;
    }
    const AluOp op = ir.attrs(in).op0;
    const bool simpleOp = op == AluOp::Add || op == AluOp::Subtract || op == AluOp::Multiply || op == AluOp::None;
    if (srcPsum || (o.allSbuf && o.allBf16 && o.srcContiguous && simpleOp)) {
        cyclesN = n;
    }
    // VectorE performance mode (NeuronCore-v3 on): 2x with both inputs in SBUF and every tensor BF16/FP16.
    if (in.engine == Engine::Vector && !srcPsum && o.all16Bit) {
        cyclesN /= c.vectorFastDivisor;
    }
    return std::max(c.minIi, cyclesN);
}

double CostModel::elementWiseCycles(const KernelIr& ir, const Instruction& in, double n) const {
    const auto& c = m_hw.costs;
    double divisor = 1.0;
    if (in.op == Op::TensorCopy || in.op == Op::TensorScalar) {
        const Operands o = operands(ir, in);
        if (o.all16Bit && in.engine == Engine::Vector) {
            // 4x contiguous in SBUF; 2x strided in SBUF, or contiguous with an operand in PSUM; else none.
            if (o.allSbuf) {
                divisor = o.contiguous ? c.vectorFastCopyDivisor : c.vectorFastDivisor;
            } else if (o.contiguous) {
                divisor = c.vectorFastDivisor;
            }
        } else if (o.all16Bit && in.engine == Engine::Scalar) {
            divisor = c.scalarFastDivisor;
        }
    }
    return std::max(c.minIi, n / divisor);
}

double CostModel::cycles(const KernelIr& ir, const Instruction& in) const {
    const auto& c = m_hw.costs;
    const double n = freeElements(ir, in);
    const auto src = ir.srcs(in);
    // Per-call rules of ISA calls recorded as another op (attrs.isa), before the op's own formula.
    switch (ir.attrs(in).isa) {
    case IsaCall::TensorScalarReduce: return std::max(c.minIi, n) + c.minIi;
    case IsaCall::TensorCopyPredicated: return predicatedCycles(ir, in, n);
    case IsaCall::RangeSelect: return std::max(c.minIi, n);
    default: break;
    }
    switch (opCost(in.op).formula) {
    case CostFormula::Matmul: return matmul(ir, in).multiplyMoving;
    case CostFormula::Transpose: {
        if (in.engine != Engine::Tensor) {
            return std::max(c.minIi, n);
        }
        const double p = src.empty() ? c.peRows : static_cast<double>(src[0].partCount);
        const double f = src.empty() ? n : static_cast<double>(elementCount(ir, src[0]));
        const bool fp32 = !src.empty() && isFp32(operandType(ir, src[0]));
        return std::max(p, std::min(64.0, f)) * (fp32 ? c.transposeFp32Factor : 1.0);
    }
    case CostFormula::ElementWise:
    case CostFormula::Fallback:
    case CostFormula::Dma: return elementWiseCycles(ir, in, n);
    case CostFormula::TensorTensor: return tensorTensorCycles(ir, in, n);
    case CostFormula::Scan: return std::max(c.minIi, c.tensorTensorSlowFactor * n);
    case CostFormula::Reduce: {
        const DType d = src.empty() ? DType::Unknown : operandType(ir, src[0]);
        const bool fast = d == DType::BFloat16 && (ir.attrs(in).op0 == AluOp::Add || ir.attrs(in).op0 == AluOp::Max);
        // N is the input size per partition for a reduction (the output is one element per partition).
        const double inN = src.empty() ? n : static_cast<double>(elementCount(ir, src[0]));
        return fast ? inN / c.reduceFastDivisor : inN;
    }
    case CostFormula::ElementWisePlusIi: return std::max(c.minIi, n) + c.minIi;
    case CostFormula::BnAggr: return std::max(c.minIi, c.bnAggrFactor * n);
    case CostFormula::Reciprocal: return std::max(c.minIi, in.engine == Engine::Vector ? c.reciprocalFactor * n : n);
    case CostFormula::GpSimdStartup: return c.gpsimdStartup + n;
    case CostFormula::Memset: {
        const auto dst = ir.dsts(in);
        const DType d = dst.empty() ? DType::Unknown : operandType(ir, dst[0]);
        const bool half = ir.attrs(in).zeroFill && (d == DType::BFloat16 || d == DType::Float16);
        return std::max(c.minIi, half ? n / c.memsetZeroDivisor : n);
    }
    case CostFormula::Predicated: return predicatedCycles(ir, in, n);
    }
    return std::max(c.minIi, n);
}

double CostModel::predicatedCycles(const KernelIr& ir, const Instruction& in, double n) const {
    const auto& c = m_hw.costs;
    return std::max(c.minIi, operands(ir, in).anyPsum ? n : c.tensorTensorSlowFactor * n);
}

double CostModel::dmaEfficiencyScale(const KernelIr& ir, const Instruction& in) const {
    if (!ir.attrs(in).isTranspose && ir.attrs(in).isa != IsaCall::DmaTranspose) {
        return 1.0;
    }
    return operands(ir, in).allSbuf ? m_hw.dma.sbufTransposeEfficiency : m_hw.dma.transposeEfficiency;
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
