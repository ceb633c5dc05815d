#pragma once

#include "engine/SimEvents.h"

namespace kl::sim {

class KernelIr;
struct HardwareProfile;
struct SimResult;

/// Receives the Pipeline's events, in program order of the instructions (not in time order: engines run
/// concurrently, so a later instruction may start earlier). At the end each listener writes its part of
/// the SimResult. Listeners never influence the schedule.
class SimListener {
public:
    virtual ~SimListener() = default;
    virtual void onStart(const KernelIr& /*ir*/, const HardwareProfile& /*hw*/) {}
    virtual void onInstruction(const InstructionEvent& /*event*/) {}
    virtual void onMemory(const MemoryEvent& /*event*/) {}
    virtual void onDmaTransfer(const DmaTransferEvent& /*event*/) {}
    virtual void onDmaBandwidth(const DmaBandwidthEvent& /*event*/) {}
    /// Called once after the last instruction, in the order listeners were added.
    virtual void finish(SimResult& /*result*/) {}
};

} // namespace kl::sim
