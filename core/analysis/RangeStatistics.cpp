#include "analysis/RangeStatistics.h"

#include "engine/SimTypes.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace kl::core {

using sim::TimePs;

namespace {

using Interval = std::pair<TimePs, TimePs>;

TimePs unionLength(std::vector<Interval>& intervals) {
    std::sort(intervals.begin(), intervals.end());
    TimePs total = 0;
    TimePs coveredTo = std::numeric_limits<TimePs>::min();
    for (const auto& [s, e] : intervals) {
        const TimePs from = std::max(s, coveredTo);
        if (e > from) {
            total += e - from;
            coveredTo = e;
        }
    }
    return total;
}

double dmaBytesIn(const sim::DmaSeries& dma, TimePs t0, TimePs t1) {
    // bytesPerNs is a step function: integrate it over the window.
    double bytes = 0;
    for (std::size_t i = 0; i < dma.timePs.size(); ++i) {
        const TimePs s = std::max(t0, dma.timePs[i]);
        const TimePs e = std::min(t1, i + 1 < dma.timePs.size() ? dma.timePs[i + 1] : dma.timePs[i]);
        if (e > s) {
            bytes += dma.bytesPerNs[i] * static_cast<double>(e - s) / 1000.0;
        }
    }
    return bytes;
}

} // namespace

RangeStatistics computeRangeStatistics(const sim::SimResult& result, TimePs t0, TimePs t1) {
    RangeStatistics stats;
    stats.startPs = t0;
    stats.endPs = t1;
    if (t1 <= t0) {
        return stats;
    }
    const auto& tl = result.timeline;
    const double window = static_cast<double>(t1 - t0);
    std::array<TimePs, sim::kComputeLanes> busy{};
    std::vector<Interval> tensor;
    std::vector<Interval> dma;
    auto clip = [&](TimePs s, TimePs e) { return Interval{std::max(s, t0), std::min(e, t1)}; };
    for (std::size_t k = 0; k < tl.lsCount(); ++k) {
        const auto [s, e] = clip(tl.lsStartPs(k), tl.lsEndPs(k));
        if (e > s) {
            busy[sim::LaneId(sim::Lane::LoadStationary).value()] += e - s;
            tensor.emplace_back(s, e);
        }
    }
    for (std::size_t i = 0; i < tl.size(); ++i) {
        const auto [s, e] = clip(tl.mainStartPs(i), tl.endPs(i));
        if (e <= s) {
            continue;
        }
        ++stats.instructions;
        ++stats.countByOperation[std::string(sim::opName(tl.op(i)))];
        // With LNC 2 both cores' engines count together (sim::localLane).
        const sim::LaneId lane(tl.lane(i), result.lanesPerCore);
        if (lane.isCompute()) {
            busy[lane.local()] += e - s;
            if (lane.local() == sim::LaneId(sim::Lane::MultiplyMoving).value()) {
                tensor.emplace_back(s, e);
            }
        } else {
            dma.emplace_back(s, e);
        }
    }
    for (std::size_t lane = 0; lane < busy.size(); ++lane) {
        stats.computeActivePct[lane] = 100.0 * static_cast<double>(busy[lane]) / window;
    }
    stats.tensorActivePct = 100.0 * static_cast<double>(unionLength(tensor)) / window;
    stats.dmaActivePct = 100.0 * static_cast<double>(unionLength(dma)) / window;
    stats.dmaBytes = dmaBytesIn(result.dma, t0, t1);
    stats.dmaBytesPerNs = stats.dmaBytes / (window / 1000.0);
    return stats;
}

} // namespace kl::core
