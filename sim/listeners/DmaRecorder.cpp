#include "listeners/DmaRecorder.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "listeners/SortedMerge.h"

#include <algorithm>
#include <cmath>

namespace kl::sim {

void DmaRecorder::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_series = {};
    m_series.queues = static_cast<std::uint32_t>(hw.dma.queues);
    const std::size_t transfers = ir.dmaCount();
    m_steps.assign(m_series.queues + 1, {});
    m_bandwidthEnd = 0;
    m_rates.clear();
    // Two steps per transfer on its queue; about one calendar piece per transfer.
    for (std::size_t q = 0; q < m_series.queues; ++q) {
        m_steps[q].reserve(transfers * 2 / std::max<std::size_t>(m_series.queues, 1) + 16);
    }
    m_steps.back().reserve(transfers + 16);
    m_rates.reserve(transfers + 16);
}

void DmaRecorder::onDmaTransfer(const DmaTransferEvent& e) {
    ++m_series.transfers;
    m_series.bytes += e.bytes;
    m_series.hbmBytes += e.touchesHbm ? e.bytes : 0;
    auto& q = m_steps[std::min<std::size_t>(e.queue, m_steps.size() - 2)];
    // A queue's next transfer often starts when its previous one ends: fold the two steps into one (the
    // series only keeps the state after all steps at one time, so the result is the same).
    if (!q.empty() && q.back().time == e.start) {
        q.back().bytes += e.bytes;
        q.back().active += 1;
    } else {
        q.push_back({e.start, e.bytes, 1, -1});
    }
    q.push_back({e.end, -e.bytes, -1, -1});
}

void DmaRecorder::onDmaBandwidth(const DmaBandwidthEvent& e) {
    m_steps.back().push_back({e.start, 0, 0, static_cast<std::int32_t>(m_rates.size())});
    m_rates.push_back(e.bytesPerNs);
    m_bandwidthEnd = e.end;
}

void DmaRecorder::onDmaBandwidths(std::span<const DmaBandwidthEvent> events) {
    for (const DmaBandwidthEvent& e : events) {
        DmaRecorder::onDmaBandwidth(e); // bound statically: no virtual call per piece
    }
}

void DmaRecorder::finish(SimResult& result) {
    if (m_bandwidthEnd > 0) {
        m_steps.back().push_back({m_bandwidthEnd, 0, 0, static_cast<std::int32_t>(m_rates.size())});
        m_rates.push_back(0.0);
    }
    std::int64_t bytes = 0;
    double rate = 0;
    std::int64_t active = 0;
    // At most one point per step plus the initial one. Reserved, not resized: pages that no point
    // reaches are never touched.
    std::size_t steps = 0;
    for (const auto& list : m_steps) {
        steps += list.size();
    }
    DmaSeries& s = m_series;
    s.timePs.reserve(steps + 1);
    s.bytesInFlight.reserve(steps + 1);
    s.bytesPerNs.reserve(steps + 1);
    s.activeTransfers.reserve(steps + 1);
    s.timePs.push_back(0);
    s.bytesInFlight.push_back(0);
    s.bytesPerNs.push_back(0);
    s.activeTransfers.push_back(0);
    // Each step is applied, then the series gets a point per distinct time (the last value at that time;
    // time 0 replaces the initial point).
    TimePs pending = -1;
    const auto flush = [&] {
        if (pending < 0) {
            return;
        }
        if (s.timePs.back() == pending) {
            s.bytesInFlight.back() = bytes;
            s.bytesPerNs.back() = rate;
            s.activeTransfers.back() = static_cast<std::uint32_t>(active);
        } else {
            s.timePs.push_back(pending);
            s.bytesInFlight.push_back(bytes);
            s.bytesPerNs.push_back(rate);
            s.activeTransfers.push_back(static_cast<std::uint32_t>(active));
        }
    };
    mergeSorted(
        m_steps, [](const Step& st) { return st.time; },
        [&](const Step& st) {
            if (st.time != pending) {
                flush();
                pending = st.time;
            }
            bytes += st.bytes;
            active += st.active;
            if (st.rate >= 0) {
                rate = m_rates[static_cast<std::size_t>(st.rate)];
            }
        });
    flush();
    m_steps = {};
    m_rates = {};
    result.dma = std::move(m_series);
}

} // namespace kl::sim
