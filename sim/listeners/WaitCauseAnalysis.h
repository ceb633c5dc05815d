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
    /// Per instruction index: how many waited on it and for how long (a flat array beats a hash map
    /// here: about a third of all instructions are waited on in a typical kernel).
    struct Waited {
        TimePs stall = 0;
        std::uint64_t waiters = 0;
    };
    std::vector<Waited> m_waited; ///< one entry per instruction: one cache line touched per dependency
};

} // namespace kl::sim
