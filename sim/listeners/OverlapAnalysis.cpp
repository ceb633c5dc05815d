#include "listeners/OverlapAnalysis.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "listeners/SortedMerge.h"

#include <algorithm>

namespace kl::sim {

void OverlapAnalysis::onStart(const KernelIr&, const HardwareProfile&) {
    m_compute.assign(kComputeLanes, {});
}

namespace {

/// Appends to a lane's interval list, merging with the previous interval when they touch: a lane runs
/// in order, so starts never decrease and the union (all finish() needs) is unchanged. Busy lanes run
/// back to back, so most instructions extend the last interval instead of adding one.
inline void appendMerged(OverlapAnalysis::Intervals& lane, TimePs start, TimePs end) {
    if (end <= start) {
        return; // empty: the union ignores it
    }
    if (!lane.empty() && start <= lane.back().second) {
        lane.back().second = std::max(lane.back().second, end);
        return;
    }
    lane.emplace_back(start, end);
}

} // namespace

void OverlapAnalysis::record(const InstructionEvent& e) {
    if (e.engine == Engine::Dma) {
        return; // from the DMA series at the end
    }
    if (e.lsStart >= 0) {
        appendMerged(m_compute[static_cast<std::size_t>(Lane::LoadStationary)], e.lsStart, e.lsEnd);
    }
    appendMerged(m_compute[e.lane], e.mainStart, e.end);
}

void OverlapAnalysis::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

TimePs OverlapAnalysis::unionOfLanes(const std::vector<Intervals>& lanes, Intervals& out) {
    out.clear();
    TimePs total = 0;
    mergeSorted(
        lanes, [](const auto& iv) { return iv.first; },
        [&](const std::pair<TimePs, TimePs>& iv) {
            if (iv.second <= iv.first) {
                return;
            }
            if (!out.empty() && iv.first <= out.back().second) {
                if (iv.second > out.back().second) {
                    total += iv.second - out.back().second;
                    out.back().second = iv.second;
                }
            } else {
                out.push_back(iv);
                total += iv.second - iv.first;
            }
        });
    return total;
}

TimePs OverlapAnalysis::activeStretches(const DmaSeries& dma, Intervals& out) {
    out.clear();
    TimePs total = 0;
    const std::size_t n = dma.timePs.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
        if (dma.activeTransfers[i] == 0) {
            continue;
        }
        const TimePs from = dma.timePs[i];
        const TimePs to = dma.timePs[i + 1];
        if (!out.empty() && out.back().second == from) {
            out.back().second = to;
        } else {
            out.emplace_back(from, to);
        }
        total += to - from;
    }
    return total;
}

TimePs OverlapAnalysis::mergeUnion(Intervals& v) {
    std::sort(v.begin(), v.end());
    std::size_t out = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i].second <= v[i].first) {
            continue;
        }
        if (out > 0 && v[i].first <= v[out - 1].second) {
            v[out - 1].second = std::max(v[out - 1].second, v[i].second);
        } else {
            v[out++] = v[i];
        }
    }
    v.resize(out);
    TimePs total = 0;
    for (const auto& [a, b] : v) {
        total += b - a;
    }
    return total;
}

TimePs OverlapAnalysis::intersection(const Intervals& a, const Intervals& b) {
    TimePs total = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const TimePs lo = std::max(a[i].first, b[j].first);
        const TimePs hi = std::min(a[i].second, b[j].second);
        total += std::max<TimePs>(0, hi - lo);
        (a[i].second < b[j].second ? i : j)++;
    }
    return total;
}

void OverlapAnalysis::finish(SimResult& result) {
    OverlapStats s;
    Intervals compute;
    Intervals dma;
    s.computeActivePs = unionOfLanes(m_compute, compute);
    s.dmaActivePs = activeStretches(result.dma, dma);
    s.overlapPs = intersection(compute, dma);
    s.dmaExposedPs = s.dmaActivePs - s.overlapPs;
    result.overlap = s;
    m_compute = {};
}

} // namespace kl::sim
