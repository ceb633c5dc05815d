#include "source/LineCost.h"

#include "ir/KernelIr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kl::core {

namespace {
bool inFile(const sim::TimelineData& tl, std::size_t i, std::uint32_t fileIndex) {
    return tl.line(i) > 0 && (fileIndex == sim::kNoIndex || tl.file(i) == fileIndex);
}
} // namespace

const LineCost* LineCostTable::find(int line) const {
    const auto it =
        std::lower_bound(lines.begin(), lines.end(), line, [](const LineCost& c, int l) { return c.line < l; });
    return it != lines.end() && it->line == line ? &*it : nullptr;
}

std::vector<LineCost> LineCostTable::byCost() const {
    auto sorted = lines;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const LineCost& a, const LineCost& b) { return a.timePs > b.timePs; });
    return sorted;
}

std::uint32_t findSourceFile(const sim::SimResult& result, std::string_view fileName) {
    if (fileName.empty()) {
        return result.files.empty() ? sim::kNoIndex : 0;
    }
    for (std::size_t i = 0; i < result.files.size(); ++i) {
        std::string_view f = result.files[i];
        const auto slash = f.find_last_of("/\\");
        if (slash != std::string_view::npos) {
            f.remove_prefix(slash + 1);
        }
        if (f == fileName) {
            return static_cast<std::uint32_t>(i);
        }
    }
    return sim::kNoIndex;
}

LineCostTable computeLineCost(const sim::TimelineData& tl, std::uint32_t fileIndex) {
    LineCostTable table;
    std::map<int, LineCost> byLine;
    std::vector<bool> laneUsed;
    sim::TimePs first = std::numeric_limits<sim::TimePs>::max();
    sim::TimePs last = 0;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        const sim::TimePs duration = std::max<sim::TimePs>(0, tl.endPs(i) - tl.mainStartPs(i));
        table.totalPs += duration;
        ++table.instructions;
        first = std::min(first, tl.startPs(i));
        last = std::max(last, tl.endPs(i));
        // TensorE's two rows are one engine: a matmul's time sits on its MultiplyMoving row.
        const std::uint16_t lane = tl.lane(i) == static_cast<std::uint16_t>(sim::Lane::LoadStationary)
                                       ? static_cast<std::uint16_t>(sim::Lane::MultiplyMoving)
                                       : tl.lane(i);
        if (lane >= laneUsed.size()) {
            laneUsed.resize(lane + 1u, false);
        }
        if (duration > 0 && !laneUsed[lane]) {
            laneUsed[lane] = true;
            ++(lane >= sim::kComputeLanes ? table.dmaQueues : table.engineLanes);
        }
        if (lane >= sim::kComputeLanes) {
            table.dmaPs += duration;
        }
        if (!inFile(tl, i, fileIndex)) {
            table.unattributedPs += duration;
            continue;
        }
        const int line = static_cast<int>(tl.line(i));
        auto& cost = byLine[line];
        cost.line = line;
        cost.timePs += duration;
        ++cost.instructions;
        table.attributedPs += duration;
        ++table.attributedInstructions;
    }
    table.spanPs = last > first ? last - first : 0;
    table.lines.reserve(byLine.size());
    for (auto& [line, cost] : byLine) {
        cost.share = table.totalPs > 0 ? static_cast<double>(cost.timePs) / static_cast<double>(table.totalPs) : 0.0;
        table.maxShare = std::max(table.maxShare, cost.share);
        table.lines.push_back(cost);
    }
    return table;
}

std::string laneTimeSummary(const LineCostTable& table, std::string_view fileName) {
    // Milliseconds past 1000 us, as the timeline's axis reads a run that long.
    const auto time = [](sim::TimePs ps) {
        const double us = static_cast<double>(ps) / 1e6;
        return us >= 1000 ? fmt::format("{:.2f} ms", us / 1000) : fmt::format("{:.2f} us", us);
    };
    const auto count = [](std::uint32_t n, const char* one, const char* many) {
        return fmt::format("{} {}", n, n == 1 ? one : many);
    };
    std::string out =
        fmt::format("Run {}; busy {} summed over {} and {}", time(table.spanPs), time(table.totalPs),
                    count(table.engineLanes, "engine", "engines"), count(table.dmaQueues, "DMA queue", "DMA queues"));
    if (table.spanPs > 0) {
        out += fmt::format(" ({:.1f} busy at once on average)",
                           static_cast<double>(table.totalPs) / static_cast<double>(table.spanPs));
    }
    const double attributed =
        table.totalPs > 0 ? 100.0 * static_cast<double>(table.attributedPs) / static_cast<double>(table.totalPs) : 0;
    out += fmt::format("; {:.1f}% of it on lines of {}. Share: a line's part of that sum.", attributed,
                       fileName.empty() ? std::string_view("the kernel") : fileName);
    return out;
}

std::vector<std::uint32_t> instructionsOnLines(const sim::TimelineData& tl, std::uint32_t fileIndex, int first,
                                               int last) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        const int line = static_cast<int>(tl.line(i));
        if (inFile(tl, i, fileIndex) && line >= first && line <= last) {
            out.push_back(static_cast<std::uint32_t>(i));
        }
    }
    return out;
}

int heatStep(double share, double maxShare, int steps) {
    if (steps <= 1 || maxShare <= 0 || share <= 0) {
        return 0;
    }
    // Square root spreads the many cheap lines over more steps than a linear scale would.
    const double t = std::sqrt(std::clamp(share / maxShare, 0.0, 1.0));
    return std::clamp(static_cast<int>(std::ceil(t * steps)) - 1, 0, steps - 1);
}

} // namespace kl::core
