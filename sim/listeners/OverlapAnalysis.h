#pragma once

#include "engine/SimListener.h"
#include "listeners/TimeOrderedLists.h"
#include "result/SimResult.h"

#include <utility>
#include <vector>

namespace kl::sim {

/// How much DMA time is hidden behind compute: the union of compute-busy intervals (all engines,
/// both TensorE rows) against the time some DMA transfer is active (queued transfer from start to end).
/// DMA time outside every compute interval is *exposed*: the core waits for data.
///
/// Compute intervals are kept per lane (a lane runs in order, touching intervals merged as they come)
/// and folded into one union at each watermark. The DMA side is read from the DMA series
/// (SimResult::dma, active transfers > 0), which the DmaRecorder finishes before this listener.
///
///   compute active 6.61 ms, dma active 6.02 ms, overlap 5.90 ms, exposed dma 0.12 ms
class OverlapAnalysis : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onInstruction(const InstructionEvent& e) override { record(e); }
    void onInstructions(std::span<const InstructionEvent> events) override;
    void onWatermark(TimePs time) override;
    void finish(SimResult& result) override;

    using Interval = std::pair<TimePs, TimePs>;
    using Intervals = std::vector<Interval>;
    /// Length covered both by `intervals` (sorted, disjoint) and by the stretches of `dma` with at least
    /// one active transfer; `dmaActive` gets the length of those stretches.
    [[nodiscard]] static TimePs overlapWithDma(const Intervals& intervals, const DmaSeries& dma, TimePs& dmaActive);

private:
    std::uint32_t m_perCore = 0; ///< lanes per core with LNC 2 (localLane), 0 for one core
    struct StartOf {
        TimePs operator()(const Interval& iv) const { return iv.first; }
    };
    void record(const InstructionEvent& e);
    void append(std::size_t lane, TimePs start, TimePs end);
    void addToUnion(const Interval& iv);

    TimeOrderedLists<Interval, StartOf> m_lanes; ///< per compute lane, LoadStationary included
    Intervals m_union;                           ///< sorted, disjoint: the compute-busy time so far
    TimePs m_computeActive = 0;
};

} // namespace kl::sim
