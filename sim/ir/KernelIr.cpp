#include "ir/KernelIr.h"

#include <algorithm>
#include <cassert>

namespace kl::sim {

std::int64_t Buffer::bytesPerPartition() const {
    std::int64_t elems = 1;
    const std::size_t first = memory == Memory::Hbm ? 0 : 1;
    for (std::size_t i = first; i < shape.size(); ++i) {
        elems *= shape[i];
    }
    return elems * dtypeBytes;
}

std::int64_t Buffer::partitions() const {
    return memory == Memory::Hbm || shape.empty() ? 1 : shape[0];
}

std::uint32_t KernelIr::addBuffer(Buffer buffer) {
    const std::size_t index = m_buffers.size();
    BufferFacts& f = m_bufferFacts.emplace_back();
    f.bytesPerPartition = buffer.bytesPerPartition();
    f.partitions = buffer.partitions();
    f.dtypeBytes = buffer.dtypeBytes;
    f.memory = buffer.memory;
    f.dtype = buffer.dtype;
    ++m_bufferCount[std::min<std::size_t>(static_cast<std::size_t>(buffer.memory), m_bufferCount.size() - 1)];
    m_buffers.push_back(std::move(buffer));
    return static_cast<std::uint32_t>(index);
}

std::uint32_t KernelIr::addPattern(std::span<const PatternDim> dims) {
    // Loops produce the same pattern shape again and again; reusing the previous one keeps the pool small.
    const auto n = dims.size();
    if (n > 0 && m_patternDims.size() >= n &&
        std::equal(
            dims.begin(), dims.end(), m_patternDims.end() - static_cast<std::ptrdiff_t>(n),
            [](const PatternDim& a, const PatternDim& b) { return a.stride == b.stride && a.count == b.count; })) {
        return static_cast<std::uint32_t>(m_patternDims.size() - n);
    }
    const auto begin = static_cast<std::uint32_t>(m_patternDims.size());
    m_patternDims.insert(m_patternDims.end(), dims.begin(), dims.end());
    return begin;
}

void KernelIr::addInstruction(Instruction in, std::span<const AccessPattern> dst, std::span<const AccessPattern> src,
                              std::span<const SourceLoc> locs, std::span<const std::int32_t> iter,
                              std::span<const std::int32_t> pid) {
    assert(dst.size() < 256 && src.size() < 256 && locs.size() < 256 && iter.size() < 256 && pid.size() < 256);
    in.operandBegin = static_cast<std::uint32_t>(m_operands.size());
    in.dstCount = static_cast<std::uint8_t>(dst.size());
    in.srcCount = static_cast<std::uint8_t>(src.size());
    m_operands.insert(m_operands.end(), dst.begin(), dst.end());
    m_operands.insert(m_operands.end(), src.begin(), src.end());
    in.locBegin = static_cast<std::uint32_t>(m_locs.size());
    in.locCount = static_cast<std::uint8_t>(locs.size());
    m_locs.insert(m_locs.end(), locs.begin(), locs.end());
    in.iterBegin = static_cast<std::uint32_t>(m_ints.size());
    in.iterCount = static_cast<std::uint8_t>(iter.size());
    in.pidCount = static_cast<std::uint8_t>(pid.size());
    m_ints.insert(m_ints.end(), iter.begin(), iter.end());
    m_ints.insert(m_ints.end(), pid.begin(), pid.end());
    recordInstruction(in);
}

std::uint32_t KernelIr::appendOperands(std::span<const AccessPattern> operands) {
    const auto begin = static_cast<std::uint32_t>(m_operands.size());
    m_operands.insert(m_operands.end(), operands.begin(), operands.end());
    return begin;
}

std::uint32_t KernelIr::appendLocs(std::span<const SourceLoc> locs) {
    const auto begin = static_cast<std::uint32_t>(m_locs.size());
    m_locs.insert(m_locs.end(), locs.begin(), locs.end());
    return begin;
}

std::uint32_t KernelIr::appendInts(std::span<const std::int32_t> values) {
    const auto begin = static_cast<std::uint32_t>(m_ints.size());
    m_ints.insert(m_ints.end(), values.begin(), values.end());
    return begin;
}

void KernelIr::addPooledInstruction(const Instruction& in) {
    assert(std::size_t{in.operandBegin} + in.dstCount + in.srcCount <= m_operands.size());
    assert(std::size_t{in.locBegin} + in.locCount <= m_locs.size());
    assert(std::size_t{in.iterBegin} + in.iterCount + in.pidCount <= m_ints.size());
    recordInstruction(in);
}

void KernelIr::recordInstruction(const Instruction& in) {
    const auto index = static_cast<std::uint32_t>(m_instructions.size());
    const auto use = [&](std::span<const AccessPattern> ops, bool write) {
        for (const AccessPattern& ap : ops) {
            if (ap.buffer >= m_bufferFacts.size()) {
                m_forwardBufferRefs = true; // added later, or never (the simulator reports that)
                continue;
            }
            BufferFacts& f = m_bufferFacts[ap.buffer];
            f.lastUse = index;
            f.written = f.written || write;
        }
    };
    use(dsts(in), true);
    use(srcs(in), false);
    const bool matmul = in.op == Op::NcMatmul && in.engine == Engine::Tensor;
    m_dmaCount += in.engine == Engine::Dma ? 1 : 0;
    m_matmulCount += matmul ? 1 : 0;
    // An engine value outside the enum is issued to VectorE by the simulator; count it there.
    m_lastOn[static_cast<std::size_t>(in.engine < Engine::Count ? in.engine : Engine::Vector)] = index;
    m_lastMatmul = matmul ? index : m_lastMatmul;
    m_instructions.push_back(in);
}

void KernelIr::reserve(std::size_t instructions) {
    m_instructions.reserve(instructions);
    m_operands.reserve(instructions * 3);
    m_locs.reserve(instructions * 2);
    m_ints.reserve(instructions * 3);
}

std::size_t KernelIr::memoryBytes() const {
    return m_instructions.capacity() * sizeof(Instruction) + m_operands.capacity() * sizeof(AccessPattern) +
           m_patternDims.capacity() * sizeof(PatternDim) + m_locs.capacity() * sizeof(SourceLoc) +
           m_ints.capacity() * sizeof(std::int32_t) + m_bufferFacts.capacity() * sizeof(BufferFacts);
}

std::int64_t elementCount(const KernelIr& ir, const AccessPattern& ap) {
    std::int64_t n = 1;
    for (const PatternDim& d : ir.pattern(ap)) {
        n *= std::max<std::int64_t>(d.count, 0);
    }
    return n;
}

} // namespace kl::sim
