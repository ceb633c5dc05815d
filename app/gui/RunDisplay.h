#pragma once

#include "plots/RunPlotData.h"
#include "source/LineCost.h"
#include "timeline/TimelineRows.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace kl::app {

/// The per-line costs of one run in each of its source files (core::computeLineCost), for the NKI heat margin
/// and the Hot Lines list whichever file the pane shows.
struct RunLineCosts {
    std::vector<core::LineCostTable> byFile; ///< parallel to SimResult::files
    core::LineCostTable anyFile;             ///< sim::kNoIndex: every instruction with a line
    /// The table of `fileIndex` (kNoIndex: anyFile), or null when the run has no such file.
    [[nodiscard]] const core::LineCostTable* of(std::uint32_t fileIndex) const;
};

/// What the views of a run need that grows with its instructions: the timeline's rows, the plots' series and the
/// line costs. SimulationRunner builds it on the worker beside the run, so that the GUI thread only installs
/// finished data when the run arrives (MainWindow::showRun); nothing there walks the instructions.
struct RunDisplay {
    std::shared_ptr<views::TimelineRows> rows;
    std::shared_ptr<const views::RunPlotData> plots;
    std::shared_ptr<const RunLineCosts> lineCosts;

    /// Blocking, any thread: it touches no QObject.
    [[nodiscard]] static RunDisplay build(const std::shared_ptr<const sim::SimResult>& result);
};

} // namespace kl::app
