#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <cstdint>
#include <vector>

namespace kl::sim {

/// Totals why instructions waited: count and stall time per cause, and the instructions others waited
/// on longest (the "blockers", e.g. a DMA that a chain of matmuls depends on).
///
/// The per-instruction tallies (waiters, stall) live in a window of recent instructions, where nearly every wait
/// lands; an instruction leaving the window is kept only if someone waited on it, and a wait on an instruction
/// already gone is noted apart and added at the end. The figures are those of a tally per instruction, in less memory
/// (about a third of all instructions are waited on in a typical kernel).
///
///   dependency   31 000 instrs   41.2 ms stalled   top blocker: #17 dma_copy (line 41)
///   sbuf_capacity   12 instrs    0.3 ms stalled
class WaitCauseAnalysis : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onInstruction(const InstructionEvent& e) override { record(e); }
    void onInstructions(std::span<const InstructionEvent> events) override;
    void finish(SimResult& result) override;

private:
    struct Tally {
        std::uint32_t index = 0;
        std::uint32_t waiters = 0; ///< fewer than 2^32: instructions are at most 2^26 (IrLimits)
        TimePs stall = 0;
    };
    void record(const InstructionEvent& e);
    /// Moves the window so that it ends after `index`, keeping the tallies that leave it.
    void slideTo(std::uint32_t index);

    WaitCauseStats m_stats;
    std::uint32_t m_instructions = 0;
    std::vector<TimePs> m_stall;          ///< the window: slot i % size for instruction i in [m_base, m_base + size)
    std::vector<std::uint32_t> m_waiters; ///< (two arrays: the pair would be padded to 16 bytes)
    std::uint32_t m_base = 0;
    /// Appended in blocks of 1 MiB, never moved: no growth by doubling, and blocks the allocator maps and unmaps
    /// whole (many small blocks left the freed memory in the process after the run).
    class Tallies {
    public:
        void push(const Tally& t) {
            if (m_blocks.empty() || m_blocks.back().size() == kBlock) {
                m_blocks.emplace_back().reserve(kBlock);
            }
            m_blocks.back().push_back(t);
        }
        /// All tallies in order, as one array (for sorting and merging at the end).
        [[nodiscard]] std::vector<Tally> take();

    private:
        static constexpr std::size_t kBlock = std::size_t{1} << 16;
        std::vector<std::vector<Tally>> m_blocks;
    };
    Tallies m_left; ///< tallies that left the window with waiters, by index
    Tallies m_late; ///< single waits on instructions that had left the window, in arrival order
};

} // namespace kl::sim
