#include "listeners/OverlapAnalysis.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <algorithm>
#include <limits>

namespace kl::sim {

void OverlapAnalysis::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_perCore = ir.lnc > 1 ? kComputeLanes + static_cast<std::uint32_t>(hw.dma.queues) : 0;
    m_lanes.reset(kComputeLanes * static_cast<std::size_t>(std::max(ir.lnc, 1)));
    m_union.clear();
    m_computeActive = 0;
}

void OverlapAnalysis::append(std::size_t lane, TimePs start, TimePs end) {
    if (end <= start) {
        return; // empty: the union ignores it
    }
    // A lane runs in order, so starts never decrease: an interval touching the lane's last one extends
    // it (busy lanes run back to back, so most instructions add nothing).
    if (Interval* last = m_lanes.last(lane); last != nullptr && start <= last->second) {
        last->second = std::max(last->second, end);
        return;
    }
    m_lanes.push(lane, {start, end});
}

void OverlapAnalysis::record(const InstructionEvent& e) {
    if (e.engine == Engine::Dma) {
        return; // from the DMA series at the end
    }
    // One list per compute lane of every core: core c's lanes follow core c - 1's.
    const std::size_t base = kComputeLanes * laneCore(e.lane, m_perCore);
    if (e.lsStart >= 0) {
        append(base + static_cast<std::size_t>(Lane::LoadStationary), e.lsStart, e.lsEnd);
    }
    append(base + localLane(e.lane, m_perCore), e.mainStart, e.end);
}

void OverlapAnalysis::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void OverlapAnalysis::addToUnion(const Interval& iv) {
    if (!m_union.empty() && iv.first <= m_union.back().second) {
        if (iv.second > m_union.back().second) {
            m_computeActive += iv.second - m_union.back().second;
            m_union.back().second = iv.second;
        }
        return;
    }
    m_union.push_back(iv);
    m_computeActive += iv.second - iv.first;
}

void OverlapAnalysis::onWatermark(TimePs time) {
    // Later intervals start at or after `time`; the union's last interval stays open to them.
    m_lanes.drainBefore(time, [this](const Interval& iv) { addToUnion(iv); });
}

TimePs OverlapAnalysis::overlapWithDma(const Intervals& intervals, const DmaSeries& dma, TimePs& dmaActive) {
    dmaActive = 0;
    TimePs overlap = 0;
    std::size_t i = 0;
    const std::size_t points = dma.timePs.size();
    for (std::size_t k = 0; k + 1 < points; ++k) {
        if (dma.activeTransfers[k] == 0) {
            continue;
        }
        const TimePs from = dma.timePs[k];
        const TimePs to = dma.timePs[k + 1];
        dmaActive += to - from;
        while (i < intervals.size() && intervals[i].second <= from) {
            ++i;
        }
        for (std::size_t j = i; j < intervals.size() && intervals[j].first < to; ++j) {
            overlap += std::min(to, intervals[j].second) - std::max(from, intervals[j].first);
        }
    }
    return overlap;
}

void OverlapAnalysis::finish(SimResult& result) {
    m_lanes.drainAll([this](const Interval& iv) { addToUnion(iv); });
    OverlapStats s;
    s.computeActivePs = m_computeActive;
    s.overlapPs = overlapWithDma(m_union, result.dma, s.dmaActivePs);
    s.dmaExposedPs = s.dmaActivePs - s.overlapPs;
    result.overlap = s;
    m_lanes.reset(0);
    m_union = {};
}

} // namespace kl::sim
