#pragma once

#include "engine/SimEvents.h"

#include <span>

namespace kl::sim {

class KernelIr;
struct HardwareProfile;
struct SimResult;

/// Receives the Pipeline's events, in program order of the instructions (not in time order: engines run
/// concurrently, so a later instruction may start earlier). At the end each listener writes its part of
/// the SimResult. Listeners never influence the schedule.
///
/// Each kind of event arrives in order, but instruction, memory and bandwidth events are delivered in
/// batches (onInstructions, onMemoryEvents, onDmaBandwidths: one virtual call per batch), so the kinds
/// interleave arbitrarily: a listener must not correlate them by arrival time.
class SimListener {
public:
    virtual ~SimListener() = default;
    virtual void onStart(const KernelIr& /*ir*/, const HardwareProfile& /*hw*/) {}
    virtual void onInstruction(const InstructionEvent& /*event*/) {}
    /// A batch of consecutive instructions in program order. The default calls onInstruction for each;
    /// the standard listeners override this with a tight loop (no virtual call per instruction).
    virtual void onInstructions(std::span<const InstructionEvent> events) {
        for (const InstructionEvent& e : events) {
            onInstruction(e);
        }
    }
    virtual void onMemory(const MemoryEvent& /*event*/) {}
    /// A batch of tile allocations/frees, in the order they happened. The default calls onMemory for each.
    virtual void onMemoryEvents(std::span<const MemoryEvent> events) {
        for (const MemoryEvent& e : events) {
            onMemory(e);
        }
    }
    virtual void onDmaTransfer(const DmaTransferEvent& /*event*/) {}
    virtual void onDmaBandwidth(const DmaBandwidthEvent& /*event*/) {}
    /// Bandwidth calendar pieces, in time order, handed over in batches. The default calls onDmaBandwidth.
    virtual void onDmaBandwidths(std::span<const DmaBandwidthEvent> events) {
        for (const DmaBandwidthEvent& e : events) {
            onDmaBandwidth(e);
        }
    }
    /// Every event earlier than `time` has been delivered, and none delivered after this call is
    /// earlier (an instruction's start, a tile's allocation or free, a transfer's start or end).
    /// Bandwidth pieces are the exception: they arrive once final, in time order, possibly after the
    /// watermark has passed their start. Listeners that turn per-lane records
    /// into time-ordered series can emit everything earlier than `time` here instead of keeping the
    /// whole run until finish(). Comes every few hundred instructions, never decreasing.
    virtual void onWatermark(TimePs /*time*/) {}
    /// Called once after the last instruction, in the order listeners were added.
    virtual void finish(SimResult& /*result*/) {}
};

} // namespace kl::sim
