#include "ir/KernelIr.h"

#include "ir/HugePages.h"

#include <algorithm>
#include <cassert>

namespace kl::sim {

namespace {

std::int64_t bytesPerPartitionOf(Memory memory, std::span<const std::int64_t> shape, std::int32_t dtypeBytes) {
    std::int64_t elems = 1;
    const std::size_t first = memory == Memory::Hbm ? 0 : 1;
    for (std::size_t i = first; i < shape.size(); ++i) {
        elems *= shape[i];
    }
    return elems * dtypeBytes;
}

std::int64_t partitionsOf(Memory memory, std::span<const std::int64_t> shape) {
    return memory == Memory::Hbm || shape.empty() ? 1 : shape[0];
}

template <typename T> void appendBytes(std::string& key, const T& value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

} // namespace

std::int64_t Buffer::bytesPerPartition() const {
    return bytesPerPartitionOf(memory, shape, dtypeBytes);
}

std::int64_t Buffer::partitions() const {
    return partitionsOf(memory, shape);
}

std::int64_t BufferView::bytesPerPartition() const {
    return bytesPerPartitionOf(memory, shape, dtypeBytes);
}

std::int64_t BufferView::partitions() const {
    return partitionsOf(memory, shape);
}

std::uint32_t KernelIr::addBuffer(const Buffer& buffer) {
    return addBufferOfKind(addBufferKind(buffer));
}

std::uint32_t KernelIr::addBufferKind(const Buffer& buffer) {
    std::string key;
    key.reserve(buffer.name.size() + 8 * buffer.shape.size() + 24);
    appendBytes(key, buffer.dtypeBytes);
    appendBytes(key, buffer.decl.file);
    appendBytes(key, buffer.decl.line);
    key.push_back(static_cast<char>(buffer.memory));
    key.push_back(static_cast<char>(buffer.dtype));
    key.push_back(static_cast<char>(buffer.role));
    key.push_back(static_cast<char>(buffer.shape.size()));
    for (const std::int64_t d : buffer.shape) {
        appendBytes(key, d);
    }
    key += buffer.name;
    const auto [it, added] = m_kindIndex.try_emplace(std::move(key), static_cast<std::uint32_t>(m_kinds.size()));
    if (!added) {
        return it->second;
    }
    assert(buffer.shape.size() < 256);
    BufferKind& k = m_kinds.emplace_back();
    // Names and shapes repeat across kinds too (the same tile at two lines): the last equal one is reused.
    const auto name = std::ranges::find(m_names, buffer.name);
    k.name = static_cast<std::uint32_t>(name - m_names.begin());
    if (name == m_names.end()) {
        m_names.push_back(buffer.name);
    }
    const auto shape = std::ranges::search(m_shapes, buffer.shape);
    k.shapeBegin = static_cast<std::uint32_t>(shape.begin() - m_shapes.begin());
    if (shape.empty() && !buffer.shape.empty()) {
        k.shapeBegin = static_cast<std::uint32_t>(m_shapes.size());
        m_shapes.insert(m_shapes.end(), buffer.shape.begin(), buffer.shape.end());
    }
    k.decl = buffer.decl;
    k.dtypeBytes = buffer.dtypeBytes;
    k.memory = buffer.memory;
    k.dtype = buffer.dtype;
    k.role = buffer.role;
    k.dims = static_cast<std::uint8_t>(buffer.shape.size());
    // Checked by the readers: on chip 1..128 partitions, HBM 1.
    m_kindFacts.push_back({bytesPerPartitionOf(buffer.memory, buffer.shape, buffer.dtypeBytes),
                           static_cast<std::int32_t>(partitionsOf(buffer.memory, buffer.shape)), buffer.dtypeBytes,
                           buffer.memory, buffer.dtype});
    return it->second;
}

std::uint32_t KernelIr::addAttrs(const InstrAttrs& attrs) {
    // Field by field: the bit-fields' padding is not part of the value.
    std::string key;
    key.reserve(24);
    appendBytes(key, attrs.movingFree);
    appendBytes(key, attrs.stationaryFree);
    appendBytes(key, attrs.contraction);
    key.push_back(static_cast<char>(attrs.dtypeIn));
    key.push_back(static_cast<char>(attrs.isa));
    key.push_back(static_cast<char>(attrs.op0));
    key.push_back(static_cast<char>(attrs.op1));
    key.push_back(
        static_cast<char>((attrs.accumulate ? 1 : 0) | (attrs.isTranspose ? 2 : 0) | (attrs.zeroFill ? 4 : 0)));
    const auto [it, added] = m_attrsIndex.try_emplace(std::move(key), static_cast<std::uint32_t>(m_attrs.size()));
    if (added) {
        m_attrs.push_back(attrs);
    }
    return it->second;
}

std::uint32_t KernelIr::addBufferOfKind(std::uint32_t kind) {
    assert(kind < m_kinds.size());
    const std::size_t index = m_uses.size();
    m_uses.push_back({kind, kNoIndex});
    ++m_bufferCount[std::min<std::size_t>(static_cast<std::size_t>(m_kindFacts[kind].memory),
                                          m_bufferCount.size() - 1)];
    return static_cast<std::uint32_t>(index);
}

void KernelIr::reserveBuffers(std::size_t buffers) {
    m_uses.reserve(buffers);
    adviseHugePages(m_uses.data(), buffers * sizeof(BufferUse));
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
    in.operandBegin = static_cast<std::uint32_t>(m_operandIndex.size());
    in.dstCount = static_cast<std::uint8_t>(dst.size());
    in.srcCount = static_cast<std::uint8_t>(src.size());
    for (const auto ops : {dst, src}) {
        for (const AccessPattern& ap : ops) {
            m_operandIndex.push_back(static_cast<std::uint32_t>(m_operands.size()));
            m_operands.push_back(ap);
        }
    }
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

namespace {

/// Room for `more` elements in a pool a reader appends whole: it grows once, to its exact size, and a large pool
/// is backed by huge pages before it is written (ir/HugePages.h).
template <typename Pool> void growForAppend(Pool& pool, std::size_t more) {
    if (pool.capacity() - pool.size() < more) {
        pool.reserve(pool.size() + more);
        adviseHugePages(pool.data() + pool.size(), more * sizeof(typename Pool::value_type));
    }
}

/// Appends `count` entries to a pool of UninitVector (left unwritten).
template <typename T> KernelIr::PoolPlace<T> appendInPlace(UninitVector<T>& pool, std::size_t count) {
    const auto begin = static_cast<std::uint32_t>(pool.size());
    growForAppend(pool, count);
    pool.resize(pool.size() + count);
    return {begin, std::span<T>(pool.data() + begin, count)};
}

} // namespace

void KernelIr::reservePools(std::size_t operands, std::size_t operandIndices, std::size_t locs, std::size_t ints) {
    growForAppend(m_operands, operands);
    growForAppend(m_operandIndex, operandIndices);
    growForAppend(m_locs, locs);
    growForAppend(m_ints, ints);
}

std::uint32_t KernelIr::appendOperands(std::span<const AccessPattern> operands) {
    const auto begin = static_cast<std::uint32_t>(m_operands.size());
    growForAppend(m_operands, operands.size());
    m_operands.insert(m_operands.end(), operands.begin(), operands.end());
    return begin;
}

std::uint32_t KernelIr::appendLocs(std::span<const SourceLoc> locs) {
    const auto begin = static_cast<std::uint32_t>(m_locs.size());
    growForAppend(m_locs, locs.size());
    m_locs.insert(m_locs.end(), locs.begin(), locs.end());
    return begin;
}

std::uint32_t KernelIr::appendInts(std::span<const std::int32_t> values) {
    const auto begin = static_cast<std::uint32_t>(m_ints.size());
    growForAppend(m_ints, values.size());
    m_ints.insert(m_ints.end(), values.begin(), values.end());
    return begin;
}

KernelIr::PoolPlace<std::int32_t> KernelIr::appendIntsInPlace(std::size_t count) {
    return appendInPlace(m_ints, count);
}

KernelIr::PoolPlace<std::uint32_t> KernelIr::appendOperandIndicesInPlace(std::size_t count) {
    return appendInPlace(m_operandIndex, count);
}

std::uint32_t KernelIr::appendOperandIndices(std::span<const std::uint32_t> indices, std::uint32_t base) {
    const auto begin = static_cast<std::uint32_t>(m_operandIndex.size());
    growForAppend(m_operandIndex, indices.size());
    if (base == 0) { // the first operands appended (a reader's one block of them): the indices as they are
        assert(std::ranges::all_of(indices, [&](std::uint32_t i) { return i < m_operands.size(); }));
        m_operandIndex.insert(m_operandIndex.end(), indices.begin(), indices.end());
        return begin;
    }
    for (const std::uint32_t i : indices) {
        assert(std::size_t{base} + i < m_operands.size());
        m_operandIndex.push_back(base + i);
    }
    return begin;
}

void KernelIr::addPooledInstruction(const Instruction& in) {
    assert(std::size_t{in.operandBegin} + in.dstCount + in.srcCount <= m_operandIndex.size());
    assert(std::size_t{in.locBegin} + in.locCount <= m_locs.size());
    assert(std::size_t{in.iterBegin} + in.iterCount + in.pidCount <= m_ints.size());
    recordInstruction(in);
}

void KernelIr::setId(std::size_t index, std::uint32_t id) {
    assert(index < m_instructions.size());
    if (m_ids.empty()) {
        if (id == index) {
            return;
        }
        m_ids.resize(m_instructions.size());
        for (std::size_t i = 0; i < m_ids.size(); ++i) {
            m_ids[i] = static_cast<std::uint32_t>(i);
        }
    }
    m_ids[index] = id;
}

void KernelIr::recordInstruction(const Instruction& in) {
    const auto index = static_cast<std::uint32_t>(m_instructions.size());
    const auto use = [&](OperandList ops, bool write) {
        for (const AccessPattern& ap : ops) {
            if (ap.buffer >= m_uses.size()) {
                m_forwardBufferRefs = true; // added later, or never (the simulator reports that)
                continue;
            }
            BufferUse& u = m_uses[ap.buffer];
            u.lastUse = index;
            if (write) {
                u.setWritten();
            }
        }
    };
    use(dsts(in), true);
    use(srcs(in), false);
    countInstruction(in, index);
    m_instructions.push_back(in);
    if (!m_ids.empty()) {
        m_ids.push_back(index);
    }
}

void KernelIr::countInstruction(const Instruction& in, std::uint32_t index) {
    const bool matmul = in.op == Op::NcMatmul && in.engine == Engine::Tensor;
    m_dmaCount += in.engine == Engine::Dma ? 1 : 0;
    m_matmulCount += matmul ? 1 : 0;
    // An engine value outside the enum is issued to VectorE by the simulator; count it there.
    m_lastOn[static_cast<std::size_t>(in.engine < Engine::Count ? in.engine : Engine::Vector)] = index;
    m_lastMatmul = matmul ? index : m_lastMatmul;
}

std::span<Instruction> KernelIr::appendInstructionsInPlace(std::size_t count) {
    const std::size_t first = m_instructions.size();
    m_instructions.resize(first + count);
    return {m_instructions.data() + first, count};
}

void KernelIr::countPooledInstructions(std::size_t first) {
    // No check of the instructions' ranges against the pools here: the binary reader counts on one thread while
    // another may still append locations and loop values (it checked the ranges against the pools' final sizes).
    for (std::size_t i = first; i < m_instructions.size(); ++i) {
        countInstruction(m_instructions[i], static_cast<std::uint32_t>(i));
    }
    if (!m_ids.empty()) {
        for (std::size_t i = m_ids.size(); i < m_instructions.size(); ++i) {
            m_ids.push_back(static_cast<std::uint32_t>(i));
        }
    }
}

void KernelIr::recordOperandUses(std::span<const std::uint32_t> operandUses) {
    // The loads' last pass (a million instructions name a few hundred thousand distinct operands): one sequential
    // walk of the operands, plain pointers, no check per entry (the caller's contract).
    assert(operandUses.size() <= m_operands.size());
    const AccessPattern* operands = m_operands.data();
    BufferUse* uses = m_uses.data();
    for (std::size_t o = 0; o < operandUses.size(); ++o) {
        const std::uint32_t use = operandUses[o];
        if (use == 0) {
            continue;
        }
        assert(operands[o].buffer < m_uses.size());
        BufferUse& u = uses[operands[o].buffer];
        const std::uint32_t index = (use & ~kOperandWritten) - 1;
        u.lastUse = u.lastUse == kNoIndex || index > u.lastUse ? index : u.lastUse;
        u.kindAndWritten |= (use & kOperandWritten) != 0 ? BufferUse::kWritten : 0u;
    }
}

void KernelIr::reserve(std::size_t instructions) {
    m_instructions.reserve(instructions);
    m_operands.reserve(instructions * 3);
    m_operandIndex.reserve(instructions * 3);
    m_locs.reserve(instructions * 2);
    m_ints.reserve(instructions * 3);
}

std::size_t KernelIr::memoryBytes() const {
    std::size_t names = m_names.capacity() * sizeof(std::string);
    for (const std::string& n : m_names) {
        names += n.capacity() > 15 ? n.capacity() + 1 : 0; // beyond the small-string buffer
    }
    // The kind index: a node (key string, value, hash, next) per kind plus its bucket.
    const std::size_t kindIndex = m_kindIndex.size() * (sizeof(std::string) + 32) + m_kindIndex.bucket_count() * 8;
    return m_instructions.capacity() * sizeof(Instruction) + m_ids.capacity() * sizeof(std::uint32_t) +
           m_operands.capacity() * sizeof(AccessPattern) + m_operandIndex.capacity() * sizeof(std::uint32_t) +
           m_patternDims.capacity() * sizeof(PatternDim) + m_locs.capacity() * sizeof(SourceLoc) +
           m_ints.capacity() * sizeof(std::int32_t) + m_uses.capacity() * sizeof(BufferUse) +
           m_kindFacts.capacity() * sizeof(KindFacts) + m_kinds.capacity() * sizeof(BufferKind) +
           m_shapes.capacity() * sizeof(std::int64_t) + names + kindIndex + m_attrs.capacity() * sizeof(InstrAttrs) +
           m_attrsIndex.size() * (sizeof(std::string) + 32) + m_attrsIndex.bucket_count() * 8;
}

std::int64_t elementCount(const KernelIr& ir, const AccessPattern& ap) {
    std::int64_t n = 1;
    for (const PatternDim& d : ir.pattern(ap)) {
        n *= std::max<std::int64_t>(d.count, 0);
    }
    return n;
}

} // namespace kl::sim
