#pragma once

#include "engine/SimListener.h"
#include "listeners/WaitTallies.h"
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
    void record(const InstructionEvent& e);
    /// Moves the window so that it ends after `index`, keeping the tallies that leave it.
    void slideTo(std::uint32_t index);

    WaitCauseStats m_stats;
    std::uint32_t m_instructions = 0;
    std::vector<TimePs> m_stall;          ///< the window: slot i % size for instruction i in [m_base, m_base + size)
    std::vector<std::uint32_t> m_waiters; ///< (two arrays: the pair would be padded to 16 bytes)
    std::uint32_t m_base = 0;
    WaitTallies m_left;            ///< tallies that left the window with waiters, by index
    std::vector<WaitTally> m_late; ///< single waits on instructions that had left the window (rare), in arrival order
};

} // namespace kl::sim
