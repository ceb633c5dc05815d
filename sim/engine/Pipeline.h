#pragma once

#include "common/Error.h"
#include "engine/CostModel.h"
#include "engine/DependencyTracker.h"
#include "engine/DmaUnit.h"
#include "engine/MemoryUnit.h"
#include "engine/SimListener.h"
#include "engine/SpillPolicy.h"
#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <array>
#include <vector>

namespace kl::sim {

/// The NeuronCore model. Owns the hardware units — one in-order lane per engine (TensorE as a
/// LoadStationary and a MultiplyMoving lane), the DmaUnit (queues, shared bandwidth), a MemoryUnit each
/// for SBUF and PSUM, the DependencyTracker — and schedules a KernelIr through them in program order:
///
///   start = max(lane free, data dependencies ready, room for the tiles it writes first)
///
/// with the binding term recorded as the wait cause. When the live tiles leave no room even after every
/// finished tile is gone, a resident tile chosen by the SpillPolicy is written out to HBM and read back
/// before its next use, as DMA transfers on the same queues (DmaKind::Spill / Reload). Each scheduled
/// instruction, tile allocation/free and DMA transfer is sent as a small event value to the listeners;
/// the Pipeline itself keeps no per-instruction history and never prints. Deterministic: integer picosecond time, fixed
/// iteration order, no hashing of pointers.
class Pipeline {
public:
    explicit Pipeline(const HardwareProfile& hw);

    /// Instruction events are handed to the listeners in batches of this many (see SimListener).
    static constexpr std::size_t kBatch = 256;

    /// Listeners are not owned; they are called in the order added.
    void addListener(SimListener* listener) { m_listeners.push_back(listener); }
    [[nodiscard]] Expected<void> run(const KernelIr& ir);

private:
    /// Per open or spilled tile, what changes while scheduling; what does not (sizes, memory, last use) is read
    /// from the IR's BufferFacts. Held in a slot (m_slots) only while the tile is open or spilled: a loop's tiles
    /// are a new buffer every iteration, so a state per buffer would hold the whole run's while few are live.
    struct BufferState {
        TimePs allocStart = 0;
        TimePs lastEnd = 0;
        bool spilled = false; ///< written out to HBM (kSpilled), else open (kOpen)
    };
    static constexpr std::uint8_t kUnallocated = 0;
    static constexpr std::uint8_t kOpen = 1;
    static constexpr std::uint8_t kFreed = 2;
    static constexpr std::uint8_t kSpilled = 3; ///< written out to HBM; reloaded by its next use
    struct Constraint {
        TimePs unitFree = 0;
        DependencyTracker::Ready dep;
    };
    struct Placement {
        TimePs start = 0;
        WaitCause cause = WaitCause::None;
        std::uint32_t waitOn = kNoIndex;
        TimePs stall = 0;
    };

    /// The state of the physical core that is not running now (logical NeuronCores, docs/simulator.md). Each
    /// core's programs come together in program order, so a switch is rare: the running core's state stays in
    /// the members below (no indirection on the hot path) and is swapped with this one.
    struct CoreState {
        std::array<TimePs, kComputeLanes> laneFree{};
        TimePs mmPrevStart = 0;
        MemoryUnit sbuf;
        MemoryUnit psum;
        SpillPolicy spills;
    };

    [[nodiscard]] Expected<void> prepare(const KernelIr& ir);
    /// Reads the IR's LNC degree, refuses one the profile has no cores for, and finds each core's last
    /// instruction.
    [[nodiscard]] Expected<void> prepareCores(const KernelIr& ir);
    /// The physical core an instruction's program runs on: its first program id split into `m_lnc` contiguous
    /// blocks of the first grid axis.
    [[nodiscard]] std::uint32_t coreOf(const KernelIr& ir, const Instruction& in) const;
    void switchCore(std::uint32_t core);
    /// A lane of the running core as a timeline lane (core c's lanes follow core c - 1's).
    [[nodiscard]] std::uint16_t coreLane(std::uint16_t lane) const {
        return static_cast<std::uint16_t>(lane + m_laneBase);
    }
    /// The timeline lane of a DMA queue (DmaUnit numbers the queues of all cores in one range).
    [[nodiscard]] std::uint16_t queueLane(std::uint32_t queue) const {
        return static_cast<std::uint16_t>(dmaLane(queue) + m_dmaLaneShift);
    }
    /// Why the run stopped at instruction `index` (m_pastLimit).
    [[nodiscard]] Expected<void> pastLimitError(const KernelIr& ir, std::uint32_t index) const;
    void scheduleCompute(const KernelIr& ir, std::uint32_t index);
    void scheduleMatmul(const KernelIr& ir, std::uint32_t index);
    void scheduleDma(const KernelIr& ir, std::uint32_t index);

    void beginInstruction(const KernelIr& ir, const Instruction& in);
    /// The region of operand `k` of `ops` (a list of the instruction being scheduled).
    [[nodiscard]] const Region& region(const OperandList& ops, std::size_t k) const {
        return m_regions[static_cast<std::size_t>(ops.indexData() + k - m_operandBase)];
    }
    void queryDeps(OperandList ops, bool isWrite, DependencyTracker::Ready& ready);
    void recordAccesses(OperandList ops, bool isWrite, TimePs end, std::uint32_t index);
    /// Opens the on-chip tiles `in` touches for the first time (and reloads the spilled ones), no earlier than
    /// `notBefore`; returns the start and the capacity cause if room (or a reload) was what held it.
    [[nodiscard]] TimePs allocate(const KernelIr& ir, const Instruction& in, std::uint32_t index, TimePs notBefore,
                                  WaitCause& capCause);
    /// The earliest time from `notBefore` on that `bytes` fit in `memory`, spilling resident tiles that `in`
    /// does not use while they do not; `spilled` tells whether any was. Overflow only when no victim is left.
    [[nodiscard]] MemoryUnit::Fit makeRoom(const KernelIr& ir, const Instruction& in, std::uint32_t index,
                                           Memory memory, std::int64_t bytes, TimePs notBefore, bool& spilled);
    /// Bytes per partition the tiles `in` uses that are already resident in `memory` reserve.
    [[nodiscard]] std::int64_t ownBytes(const KernelIr& ir, const Instruction& in, Memory memory) const;
    /// Writes tile `buffer` out to HBM after its last access so far; its room is free when the write ends.
    void spillOut(std::uint32_t buffer, std::uint32_t index);
    /// Brings spilled tile `buffer` back for instruction `index`; returns when its data is on chip again.
    [[nodiscard]] TimePs reload(const KernelIr& ir, const Instruction& in, std::uint32_t buffer, std::uint32_t index);
    /// Issues a spill or reload of `buffer` no earlier than `notBefore` and tells the listeners.
    [[nodiscard]] DmaUnit::Transfer tileTransfer(DmaKind kind, std::uint32_t buffer, std::uint32_t index,
                                                 TimePs notBefore, TimePs& start, std::uint32_t& queue);
    [[nodiscard]] MemoryUnit& unitOf(Memory memory) { return memory == Memory::Sbuf ? m_sbuf : m_psum; }
    void commitAllocations(TimePs start, std::uint16_t lane);
    void releaseFinished(const KernelIr& ir, const Instruction& in, std::uint32_t index, TimePs end,
                         std::uint16_t lane);
    [[nodiscard]] static Placement place(const Constraint& c, TimePs start, WaitCause capCause, WaitCause unitCause);
    /// Bytes a buffer reserves in each partition (PSUM rounded up to whole banks).
    [[nodiscard]] std::int64_t reserved(const BufferFacts& f) const {
        return f.memory == Memory::Psum && m_bankBytes > 0
                   ? (f.bytesPerPartition + m_bankBytes - 1) / m_bankBytes * m_bankBytes
                   : f.bytesPerPartition;
    }
    void advanceWatermark(std::uint32_t index);
    void emitDmaBandwidth(bool all);
    void emit(const InstructionEvent& e);
    void flushInstructions();
    void emitMemory(const MemoryEvent& e);
    void flushMemoryBatch();

    const HardwareProfile& m_hw;
    CostModel m_cost;
    DependencyTracker m_deps;
    DmaUnit m_dma;
    MemoryUnit m_sbuf;
    MemoryUnit m_psum;
    SpillPolicy m_spills;
    std::array<TimePs, kComputeLanes> m_laneFree{};
    std::array<std::uint32_t, kComputeLanes + 1> m_laneLastUse{}; ///< last instruction per lane; [5] = any DMA
    TimePs m_mmPrevStart = 0;
    TimePs m_mark = 0;     ///< no instruction from the current one on starts earlier (advanceWatermark)
    TimePs m_markSent = 0; ///< the last watermark given to the listeners
    /// The state of open or spilled tile `buffer`.
    [[nodiscard]] BufferState& slotOf(std::uint32_t buffer) { return m_slots[m_slotOf[buffer]]; }
    /// kUnallocated, kOpen, kFreed or kSpilled.
    [[nodiscard]] std::uint8_t stateOf(std::uint32_t buffer) const {
        const std::uint32_t slot = m_slotOf[buffer];
        return slot == kNoIndex ? kUnallocated : slot == kFreedSlot ? kFreed : m_slots[slot].spilled ? kSpilled : kOpen;
    }
    /// Gives `buffer` a slot: it is open from now on.
    BufferState& takeSlot(std::uint32_t buffer);
    /// `buffer` is freed: its slot is reused.
    void releaseSlot(std::uint32_t buffer) {
        m_freeSlots.push_back(m_slotOf[buffer]);
        m_slotOf[buffer] = kFreedSlot;
    }
    static constexpr std::uint32_t kFreedSlot = kNoIndex - 1; ///< m_slotOf of a freed tile (kNoIndex: unallocated)

    std::vector<BufferState> m_slots;       ///< open or spilled tiles' states, reused once freed
    std::vector<std::uint32_t> m_freeSlots; ///< slots of m_slots free for reuse
    std::vector<std::uint32_t> m_slotOf;    ///< per buffer: its slot while open or spilled, or kNoIndex / kFreedSlot
    BufferFactsTable m_facts;               ///< the IR's, or read through m_ownUses when the IR's uses are incomplete
    std::vector<BufferUse> m_ownUses;
    std::int64_t m_bankBytes = 0;
    std::vector<std::uint32_t> m_newlyOpened;
    const std::uint32_t* m_operandBase = nullptr; ///< first operand index of the instruction being scheduled
    std::vector<Region> m_regions;                ///< its operands' regions (each is queried, then recorded)
    std::vector<SimListener*> m_listeners;
    int m_lnc = 1;                               ///< physical cores of the logical core (the IR's kernel.lnc)
    std::uint32_t m_core = 0;                    ///< the core whose state is in the members above
    std::int64_t m_grid0 = 1;                    ///< programs along the first grid axis
    std::uint16_t m_laneBase = 0;                ///< coreLane offset of the running core
    std::uint16_t m_dmaLaneShift = 0;            ///< queueLane offset of the running core
    std::array<std::uint32_t, 2> m_lastOfCore{}; ///< each core's last instruction (kNoIndex: none)
    std::uint32_t m_parkedLast = kNoIndex;       ///< the parked core's last instruction
    CoreState m_parked;
    /// Set when an instruction ends at or after kMaxTimePs or a byte total passes kMaxTotalBytes: the run
    /// stops with an error before any later sum could overflow.
    bool m_pastLimit = false;
    std::int64_t m_dmaBytesTotal = 0;
    std::int64_t m_onChipBytesTotal = 0;
    std::array<InstructionEvent, kBatch> m_batch{};
    std::size_t m_batchSize = 0;
    std::array<MemoryEvent, kBatch> m_memoryBatch{};
    std::size_t m_memoryBatchSize = 0;
};

} // namespace kl::sim
