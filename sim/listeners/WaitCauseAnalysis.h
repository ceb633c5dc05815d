#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <vector>

namespace kl::sim {

/// Totals why instructions waited: count and stall time per cause, and the instructions others waited
/// on longest (the "blockers", e.g. a DMA that a chain of matmuls depends on).
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
    WaitCauseStats m_stats;
    /// Per instruction index: how long others waited on it and how many (flat arrays beat a hash map here: about a
    /// third of all instructions are waited on in a typical kernel; two arrays, 12 bytes per instruction, because
    /// the pair would be padded to 16).
    std::vector<TimePs> m_stall;
    std::vector<std::uint32_t> m_waiters;
};

} // namespace kl::sim
