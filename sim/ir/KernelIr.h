#pragma once

#include "ir/BufferFacts.h"
#include "ir/BufferTable.h"
#include "ir/DefaultInitAllocator.h"
#include "ir/IrTypes.h"
#include "ir/OperandList.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace kl::sim {

/// A buffer as a reader builds it (KernelIr::addBuffer); the IR keeps it as a BufferKind and reads it back as
/// a BufferView.
struct Buffer {
    std::string name;
    std::vector<std::int64_t> shape;
    Memory memory = Memory::Hbm;
    DType dtype = DType::Unknown;
    BufferRole role = BufferRole::Tile;
    std::int32_t dtypeBytes = 0;
    SourceLoc decl;
    /// Bytes each partition holds (on-chip) or the whole tensor's bytes (HBM).
    [[nodiscard]] std::int64_t bytesPerPartition() const;
    [[nodiscard]] std::int64_t partitions() const;
};

/// Op-specific attributes the cost model reads; the rest of the IR `attrs` object is ignored. The per-op cost rules
/// (sim/engine/OpCostTable) read `isa`, `op1` and `zeroFill` besides the matmul sizes. A program has few distinct
/// ones: KernelIr keeps each once and an instruction names it by index (KernelIr::attrs).
struct InstrAttrs {
    std::uint32_t movingFree = 0;
    std::uint32_t stationaryFree = 0;
    std::uint32_t contraction = 0;
    DType dtypeIn = DType::Unknown;
    IsaCall isa = IsaCall::None; ///< `attrs.isa`: the ISA call recorded as this (closest costed) op
    AluOp op0 : 4 = AluOp::None;
    AluOp op1 : 4 = AluOp::None;
    bool accumulate : 1 = false;
    bool isTranspose : 1 = false;
    bool zeroFill : 1 = false; ///< a memset whose `value` is 0
};
static_assert(sizeof(InstrAttrs) == 16);

/// One IR instruction. Operands, source frames and loop indices are ranges into the KernelIr pools. Its IR `id` is
/// kept apart (KernelIr::id: nothing when every id is the instruction's index, as the front end writes them), and
/// `elements` and `bytes` are 42-bit fields (the IR allows 0..2^40, IrLimits) sharing their words with the counts and
/// the attributes' index, so that an instruction is 32 bytes.
struct Instruction {
    Op op = Op::Unknown;
    Engine engine = Engine::Vector;
    std::uint8_t locCount = 0;
    std::uint8_t iterCount = 0;
    std::uint32_t operandBegin = 0; ///< first entry in the operand index pool: dst operands first, then src
    std::uint32_t locBegin = 0;
    std::uint32_t iterBegin = 0; ///< iteration values followed by pid values
    std::int64_t elements : 42 = 0;
    // pidCount before the two 7-bit counts, not after: at bit 56 it was a whole byte, which the compiler stores
    // alone and then reads back with the word (a store-forwarding stall in the binary reader's hottest loop).
    std::uint64_t pidCount : 8 = 0;
    std::uint64_t dstCount : 7 = 0; ///< at most 64 (IrLimits)
    std::uint64_t srcCount : 7 = 0;
    std::int64_t bytes : 42 = 0;
    std::uint64_t attrsIndex : 22 = 0; ///< KernelIr::attrs(); 0 is the default (no attributes)
};
/// Instructions are most of the IR: keep the record small (docs/kernel-ir.md, "In memory").
static_assert(sizeof(Instruction) == 32);
/// Distinct attribute sets an IR may hold (Instruction::attrsIndex; a program has a handful): readers refuse more.
inline constexpr std::size_t kMaxAttrSets = std::size_t{1} << 22;

struct KernelArg {
    std::string name;
    std::vector<std::int64_t> shape;
    std::string dtype;
};

struct IrDiagnostic {
    std::string severity;
    std::string message;
    SourceLoc loc;
};

/// The Kernel IR of one traced kernel (docs/kernel-ir.md), stored compactly: instructions are fixed-size
/// values and every variable-length part (operands, pattern dimensions, source frames, loop indices) is a
/// range into a shared pool, so a million instructions take tens of megabytes and no pointers. Operands are
/// kept once each (an instruction holds indices) and buffers as kinds (name, shape, type, declaration) plus
/// per-buffer facts (docs/kernel-ir.md, "In memory").
/// Built by IrLoader (from JSON) or directly through the add* functions (tests, benchmarks).
class KernelIr {
public:
    std::string kernelName;
    std::string api;
    std::vector<std::int64_t> grid;
    /// Logical NeuronCore degree the kernel was traced for (`kernel.lnc`, 1 or 2; docs/kernel-ir.md): with 2, the
    /// programs of the first grid axis are split over two physical cores (docs/simulator.md, "Logical NeuronCores").
    int lnc = 1;
    std::vector<KernelArg> args;
    std::vector<std::string> files;
    std::vector<IrDiagnostic> diagnostics;

    [[nodiscard]] BufferTable buffers() const { return {m_kinds, m_names, m_shapes, m_uses}; }
    [[nodiscard]] const std::vector<Instruction>& instructions() const { return m_instructions; }
    [[nodiscard]] OperandList dsts(const Instruction& in) const {
        return {m_operands.data(), m_operandIndex.data() + in.operandBegin, in.dstCount};
    }
    [[nodiscard]] OperandList srcs(const Instruction& in) const {
        return {m_operands.data(), m_operandIndex.data() + in.operandBegin + in.dstCount, in.srcCount};
    }
    /// Destinations then sources.
    [[nodiscard]] OperandList operands(const Instruction& in) const {
        return {m_operands.data(), m_operandIndex.data() + in.operandBegin,
                std::size_t{in.dstCount} + std::size_t{in.srcCount}};
    }
    [[nodiscard]] std::span<const PatternDim> pattern(const AccessPattern& ap) const {
        return {m_patternDims.data() + ap.patternBegin, ap.patternCount};
    }
    [[nodiscard]] std::span<const SourceLoc> locs(const Instruction& in) const {
        return {m_locs.data() + in.locBegin, in.locCount};
    }
    [[nodiscard]] std::span<const std::int32_t> iter(const Instruction& in) const {
        return {m_ints.data() + in.iterBegin, in.iterCount};
    }
    [[nodiscard]] std::span<const std::int32_t> pid(const Instruction& in) const {
        return {m_ints.data() + in.iterBegin + in.iterCount, in.pidCount};
    }
    [[nodiscard]] const InstrAttrs& attrs(const Instruction& in) const { return m_attrs[in.attrsIndex]; }
    /// The index of `attrs` for Instruction::attrsIndex (added if new; equal attributes share one). A reader checks
    /// attrsCount() against kMaxAttrSets.
    std::uint32_t addAttrs(const InstrAttrs& attrs);
    [[nodiscard]] std::size_t attrsCount() const { return m_attrs.size(); }
    /// The IR `id` of the instruction at `index` (its index unless setId said otherwise).
    [[nodiscard]] std::uint32_t id(std::size_t index) const {
        return m_ids.empty() ? static_cast<std::uint32_t>(index) : m_ids[index];
    }
    /// Sets the IR `id` of an instruction already added; ids equal to their index take no memory.
    void setId(std::size_t index, std::uint32_t id);
    /// The innermost source frame (the NKI call), or an empty location.
    [[nodiscard]] SourceLoc innermostLoc(const Instruction& in) const {
        return in.locCount > 0 ? m_locs[in.locBegin] : SourceLoc{};
    }

    /// How many instructions are DMA transfers, and how many are TensorE matmuls (kept as instructions
    /// are added, so that listeners can size their storage without a pass over the program).
    [[nodiscard]] std::size_t dmaCount() const { return m_dmaCount; }
    [[nodiscard]] std::size_t matmulCount() const { return m_matmulCount; }
    /// How many buffers live in `memory`.
    [[nodiscard]] std::size_t bufferCount(Memory memory) const {
        return m_bufferCount[static_cast<std::size_t>(memory)];
    }
    /// Per buffer, parallel to buffers(). Uses are counted only for operands whose buffer existed when the
    /// instruction was added; if some did not, hasForwardBufferRefs() is true and a reader must work the
    /// uses out from the instructions itself (and report operands whose buffer never came).
    [[nodiscard]] BufferFactsTable bufferFacts() const { return {m_kindFacts.data(), m_uses.data(), m_uses.size()}; }
    /// The two tables bufferFacts() reads (for a simulator that works the uses out itself).
    [[nodiscard]] const std::vector<KindFacts>& kindFacts() const { return m_kindFacts; }
    [[nodiscard]] const std::vector<BufferUse>& bufferUses() const { return m_uses; }
    [[nodiscard]] bool hasForwardBufferRefs() const { return m_forwardBufferRefs; }
    /// The last instruction issued to each engine (kNoIndex if none), and the last TensorE matmul.
    [[nodiscard]] std::uint32_t lastOn(Engine engine) const { return m_lastOn[static_cast<std::size_t>(engine)]; }
    [[nodiscard]] std::uint32_t lastMatmul() const { return m_lastMatmul; }

    std::uint32_t addBuffer(const Buffer& buffer);
    /// The kind `buffer` is of (added if new: buffers equal in every field share one), for addBufferOfKind.
    std::uint32_t addBufferKind(const Buffer& buffer);
    /// Appends a buffer of a kind addBufferKind returned.
    std::uint32_t addBufferOfKind(std::uint32_t kind);
    /// Appends a pattern and returns the index of its first dimension (for AccessPattern::patternBegin).
    std::uint32_t addPattern(std::span<const PatternDim> dims);
    /// Appends an instruction; operands, locations and loop values are copied into the pools.
    void addInstruction(Instruction in, std::span<const AccessPattern> dst, std::span<const AccessPattern> src,
                        std::span<const SourceLoc> locs = {}, std::span<const std::int32_t> iter = {},
                        std::span<const std::int32_t> pid = {});
    /// For readers whose input already pools what repeats (the binary form): append a whole pool once, then add
    /// instructions whose operand, frame and value ranges (begin and count fields) point into what was appended.
    /// Instructions with equal operands then share one copy: a trace of loops takes a few bytes per instruction
    /// beyond the Instruction itself. appendOperands adds distinct operands (returns the first one's index);
    /// appendOperandIndices adds operand lists whose entries are indices relative to `base` (returns the first
    /// entry's place, for Instruction::operandBegin).
    std::uint32_t appendOperands(std::span<const AccessPattern> operands);
    std::uint32_t appendOperandIndices(std::span<const std::uint32_t> indices, std::uint32_t base);
    std::uint32_t appendLocs(std::span<const SourceLoc> locs);
    std::uint32_t appendInts(std::span<const std::int32_t> values);
    /// Where a pool grew by appendIntsInPlace or appendOperandIndicesInPlace: the first new entry's index and the
    /// new entries, not yet written.
    template <typename T> struct PoolPlace {
        std::uint32_t begin = 0;
        std::span<T> entries;
    };
    /// Appends `count` loop values left unwritten (no zeroing), for a reader that reads them from its file straight
    /// into place: it writes every one before the IR is used.
    PoolPlace<std::int32_t> appendIntsInPlace(std::size_t count);
    /// Appends `count` operand index entries left unwritten, as appendIntsInPlace: the reader writes each as an
    /// index into the operands already appended (and checks that it is one).
    PoolPlace<std::uint32_t> appendOperandIndicesInPlace(std::size_t count);
    /// `in`'s ranges must lie inside the pools (the caller checked them against what it appended).
    void addPooledInstruction(const Instruction& in);
    /// For a reader that decodes instructions straight into place, a block at a time (after reserveInstructions):
    /// appends `count` default instructions for it to overwrite. Their engine counts are recorded by
    /// countPooledInstructions and their buffer uses by recordOperandUses, so a reader may decode them on another
    /// thread while the buffers and operands are still being read.
    std::span<Instruction> appendInstructionsInPlace(std::size_t count);
    /// The engine and matmul bookkeeping (and ids, once setId made them differ) of the instructions from `first` on,
    /// appended in place. Touches nothing else, so it may run beside appends to the buffers and pools.
    void countPooledInstructions(std::size_t first);
    /// An entry of recordOperandUses' table: set when an instruction writes the operand.
    static constexpr std::uint32_t kOperandWritten = 0x80000000u;
    /// Notes in `operandUses` (an entry per operand, zero at first) that instruction `index` names the operands
    /// `entries`, its first `dstCount` written: an entry becomes the index + 1 of the last instruction naming the
    /// operand, with kOperandWritten once one writes it. A reader notes each instruction as it decodes it, needing
    /// only the operand lists (not the operands or buffers), then records the table with recordOperandUses.
    static void noteOperandUses(std::span<std::uint32_t> operandUses, std::span<const std::uint32_t> entries,
                                std::size_t dstCount, std::uint32_t index) {
        for (std::size_t k = 0; k < entries.size(); ++k) {
            std::uint32_t& use = operandUses[entries[k]];
            use = (index + 1) | (use & kOperandWritten) | (k < dstCount ? kOperandWritten : 0u);
        }
    }
    /// Records the buffer uses a table of noteOperandUses describes, one entry per operand appended: a buffer's last
    /// use is the latest of its operands' (or of what it had), and it is written if one of them is. Every buffer the
    /// operands name must exist (the caller checked): one tight loop over the operands, no check per entry.
    void recordOperandUses(std::span<const std::uint32_t> operandUses);
    /// Room for exactly this many entries in the pools a reader appends in blocks (appendOperands, ... called once
    /// per block): each pool grows once, to its final size, backed by huge pages where the system allows it.
    void reservePools(std::size_t operands, std::size_t operandIndices, std::size_t locs, std::size_t ints);
    void reserve(std::size_t instructions);
    /// Room for the instructions only (their pools appended whole).
    void reserveInstructions(std::size_t instructions) { m_instructions.reserve(instructions); }
    /// Room for exactly this many buffers (a reader that knows the count: no growth by doubling).
    void reserveBuffers(std::size_t buffers);
    /// Entries in the largest pool (operands, pattern dimensions, locations, loop values): offsets into the
    /// pools are 32-bit, so a loader stops well before this reaches 2^32.
    [[nodiscard]] std::size_t largestPool() const {
        return std::max({m_operands.size(), m_operandIndex.size(), m_patternDims.size(), m_locs.size(), m_ints.size()});
    }
    /// Heap bytes held by the instructions, their pools and the buffers (kinds, names, shapes and facts), for the
    /// benchmarks' bytes-per-instruction figure.
    [[nodiscard]] std::size_t memoryBytes() const;

private:
    /// Buffer facts, engine and matmul bookkeeping for an instruction whose pools are in place.
    void recordInstruction(const Instruction& in);
    /// The engine and matmul bookkeeping of instruction `index`.
    void countInstruction(const Instruction& in, std::uint32_t index);

    std::vector<BufferKind> m_kinds;
    std::vector<std::string> m_names;
    std::vector<std::int64_t> m_shapes;
    std::vector<KindFacts> m_kindFacts;                         ///< per kind, parallel to m_kinds
    std::vector<BufferUse> m_uses;                              ///< per buffer
    std::unordered_map<std::string, std::uint32_t> m_kindIndex; ///< a kind's fields as bytes -> its index
    std::vector<Instruction> m_instructions;
    std::vector<std::uint32_t> m_ids; ///< per instruction, or empty while every id is its index
    std::vector<InstrAttrs> m_attrs{InstrAttrs{}};
    std::unordered_map<std::string, std::uint32_t> m_attrsIndex; ///< attributes' fields as bytes -> index
    std::vector<AccessPattern> m_operands;                       ///< distinct operands
    UninitVector<std::uint32_t> m_operandIndex; ///< per instruction, its operands' indices in m_operands
    std::vector<PatternDim> m_patternDims;
    std::vector<SourceLoc> m_locs;
    UninitVector<std::int32_t> m_ints;
    std::size_t m_dmaCount = 0;
    std::size_t m_matmulCount = 0;
    bool m_forwardBufferRefs = false;
    std::array<std::size_t, 3> m_bufferCount{}; ///< per Memory
    std::array<std::uint32_t, static_cast<std::size_t>(Engine::Count)> m_lastOn{kNoIndex, kNoIndex, kNoIndex, kNoIndex,
                                                                                kNoIndex};
    std::uint32_t m_lastMatmul = kNoIndex;
};

/// Smallest and one-past-largest element index an access pattern touches (free dimension / flat index).
struct ElementRange {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
};
/// Inline: the simulator takes the range of every tracked operand.
[[nodiscard]] inline ElementRange elementRange(const KernelIr& ir, const AccessPattern& ap) {
    std::int64_t lo = ap.offset;
    std::int64_t hi = ap.offset;
    for (const PatternDim& d : ir.pattern(ap)) {
        if (d.count <= 0) {
            return {ap.offset, ap.offset};
        }
        const std::int64_t span = d.stride * (d.count - 1);
        (span < 0 ? lo : hi) += span;
    }
    return {lo, hi + 1};
}
/// Number of elements per partition an access pattern touches (product of the pattern counts).
[[nodiscard]] std::int64_t elementCount(const KernelIr& ir, const AccessPattern& ap);

} // namespace kl::sim
