#pragma once

#include "common/Error.h"
#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <memory>
#include <span>

namespace kl::sim {

class SimListener;

/// The one place that knows the whole topology (llvm-mca's createDefaultPipeline): builds a Pipeline for
/// a HardwareProfile, attaches the standard listeners (SummaryCollector, TimelineRecorder, OccupancyRecorder,
/// DmaRecorder, OverlapAnalysis, WaitCauseAnalysis, SpillRecorder), runs the IR, then makes the summary in a pass after
/// every listener (standard and extra) has finished (SummaryCollector::summarise) and freezes the result.
/// Single-threaded and re-entrant: call it from a worker thread and hand the result to the GUI.
class Simulator {
public:
    /// `extra` listeners (not owned) see the same events after the standard ones.
    [[nodiscard]] static Expected<std::shared_ptr<const SimResult>> run(const KernelIr& ir, const HardwareProfile& hw,
                                                                        std::span<SimListener* const> extra = {});
};

} // namespace kl::sim
