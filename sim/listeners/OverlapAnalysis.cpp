#include "listeners/OverlapAnalysis.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <algorithm>
#include <limits>

namespace kl::sim {

void OverlapAnalysis::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_perCore = ir.lnc > 1 ? kComputeLanes + static_cast<std::uint32_t>(hw.dma.queues) : 0;
    const auto cores = static_cast<std::size_t>(std::max(ir.lnc, 1));
    m_lanes.reset(kComputeLanes * cores);
    m_queues.reset(std::max<std::size_t>(static_cast<std::size_t>(hw.dma.queues) * cores, 1));
    m_compute.clear();
    m_dma.clear();
    m_settled = 0;
    m_stats = {};
}

void OverlapAnalysis::append(Lists& lists, std::size_t list, TimePs start, TimePs end) {
    if (end <= start) {
        return; // empty: the union ignores it
    }
    // A lane (or queue) runs in order, so starts never decrease: an interval touching the list's last one extends
    // it (busy lanes run back to back, so most instructions add nothing).
    if (Interval* last = lists.last(list); last != nullptr && start <= last->second) {
        last->second = std::max(last->second, end);
        return;
    }
    lists.push(list, {start, end});
}

void OverlapAnalysis::record(const InstructionEvent& e) {
    if (e.engine == Engine::Dma) {
        return; // from its transfer (onDmaTransfer)
    }
    // One list per compute lane of every core: core c's lanes follow core c - 1's.
    const std::size_t base = kComputeLanes * laneCore(e.lane, m_perCore);
    if (e.lsStart >= 0) {
        append(m_lanes, base + static_cast<std::size_t>(Lane::LoadStationary), e.lsStart, e.lsEnd);
    }
    append(m_lanes, base + localLane(e.lane, m_perCore), e.mainStart, e.end);
}

void OverlapAnalysis::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void OverlapAnalysis::onDmaTransfer(const DmaTransferEvent& e) {
    // As the DMA series counts a transfer: active from its start to its end on its queue.
    append(m_queues, std::min<std::size_t>(e.queue, m_queues.size() - 1), e.start, e.end);
}

void OverlapAnalysis::addToUnion(Intervals& to, const Interval& iv) {
    if (!to.empty() && iv.first <= to.back().second) {
        to.back().second = std::max(to.back().second, iv.second);
        return;
    }
    to.push_back(iv);
}

void OverlapAnalysis::settle(TimePs time) {
    m_lanes.drainBefore(time, [this](const Interval& iv) { addToUnion(m_compute, iv); });
    m_queues.drainBefore(time, [this](const Interval& iv) { addToUnion(m_dma, iv); });
    // Both unions are final before `time`: measure [m_settled, time) of each and of their intersection.
    const auto clipped = [&](TimePs from, TimePs to) {
        return std::max<TimePs>(0, std::min(to, time) - std::max(from, m_settled));
    };
    for (const Interval& c : m_compute) {
        m_stats.computeActivePs += clipped(c.first, c.second);
    }
    for (const Interval& d : m_dma) {
        m_stats.dmaActivePs += clipped(d.first, d.second);
    }
    for (std::size_t i = 0, j = 0; i < m_compute.size() && j < m_dma.size();) {
        m_stats.overlapPs +=
            clipped(std::max(m_compute[i].first, m_dma[j].first), std::min(m_compute[i].second, m_dma[j].second));
        (m_compute[i].second < m_dma[j].second ? i : j) += 1;
    }
    // Intervals ending by `time` are measured whole; the ones still open stay (at most one per side after the
    // merge, plus the ones starting at or after an open one's end, none of which exist yet).
    const auto ended = [time](const Interval& iv) { return iv.second <= time; };
    m_compute.erase(m_compute.begin(), std::ranges::find_if_not(m_compute, ended));
    m_dma.erase(m_dma.begin(), std::ranges::find_if_not(m_dma, ended));
    m_settled = std::max(m_settled, time);
}

void OverlapAnalysis::onWatermark(TimePs time) {
    // Later intervals start at or after `time`.
    settle(time);
}

void OverlapAnalysis::finish(SimResult& result) {
    settle(std::numeric_limits<TimePs>::max());
    m_stats.dmaExposedPs = m_stats.dmaActivePs - m_stats.overlapPs;
    result.overlap = m_stats;
    m_lanes.reset(0);
    m_queues.reset(0);
    m_compute = {};
    m_dma = {};
}

} // namespace kl::sim
