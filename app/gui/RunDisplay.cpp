#include "gui/RunDisplay.h"

namespace kl::app {

const core::LineCostTable* RunLineCosts::of(std::uint32_t fileIndex) const {
    if (fileIndex == sim::kNoIndex) {
        return &anyFile;
    }
    return fileIndex < byFile.size() ? &byFile[fileIndex] : nullptr;
}

RunDisplay RunDisplay::build(const std::shared_ptr<const sim::SimResult>& result) {
    RunDisplay display;
    if (!result) {
        return display;
    }
    display.rows = std::make_shared<views::TimelineRows>(result);
    display.plots = views::RunPlotData::build(*result);
    auto costs = std::make_shared<RunLineCosts>();
    // One table per file: the pane may show any of them (a package's modules) and switch without a new pass.
    costs->byFile.reserve(result->files.size());
    for (std::uint32_t i = 0; i < result->files.size(); ++i) {
        costs->byFile.push_back(core::computeLineCost(result->timeline, i));
    }
    costs->anyFile = core::computeLineCost(result->timeline, sim::kNoIndex);
    display.lineCosts = std::move(costs);
    return display;
}

} // namespace kl::app
