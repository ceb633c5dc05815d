#include "listeners/DmaRecorder.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <algorithm>

namespace kl::sim {

void DmaRecorder::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_series = {};
    m_series.queues = static_cast<std::uint32_t>(hw.dma.queues);
    m_steps.reset(m_series.queues + 1);
    m_rates.clear();
    m_rateBase = 0;
    m_bandwidthEnd = 0;
    m_bytes = 0;
    m_active = 0;
    m_rate = 0;
    m_pending = -1;
    // About one point per step (two per transfer, one per calendar piece), often fewer: reserved, not
    // resized, so pages no point reaches are never touched.
    const std::size_t points = 3 * ir.dmaCount() + 1;
    m_series.timePs.reserve(points);
    m_series.bytesInFlight.reserve(points);
    m_series.bytesPerNs.reserve(points);
    m_series.activeTransfers.reserve(points);
    m_series.timePs.push_back(0);
    m_series.bytesInFlight.push_back(0);
    m_series.bytesPerNs.push_back(0);
    m_series.activeTransfers.push_back(0);
}

void DmaRecorder::onDmaTransfer(const DmaTransferEvent& e) {
    ++m_series.transfers;
    m_series.bytes += e.bytes;
    m_series.hbmBytes += e.touchesHbm ? e.bytes : 0;
    const std::size_t queue = std::min<std::size_t>(e.queue, m_steps.size() - 2);
    // A queue's next transfer often starts when its previous one ends: fold the two steps into one (the
    // series only keeps the state after all steps at one time, so the result is the same).
    if (Step* last = m_steps.last(queue); last != nullptr && last->time == e.start) {
        last->bytes += e.bytes;
        last->active += 1;
    } else {
        m_steps.push(queue, {e.start, e.bytes, 1, -1});
    }
    m_steps.push(queue, {e.end, -e.bytes, -1, -1});
}

void DmaRecorder::onDmaBandwidth(const DmaBandwidthEvent& e) {
    m_steps.push(m_steps.size() - 1, {e.start, 0, 0, static_cast<std::int32_t>(m_rateBase + m_rates.size())});
    m_rates.push_back(e.bytesPerNs);
    m_bandwidthEnd = e.end;
}

void DmaRecorder::onDmaBandwidths(std::span<const DmaBandwidthEvent> events) {
    for (const DmaBandwidthEvent& e : events) {
        DmaRecorder::onDmaBandwidth(e); // bound statically: no virtual call per piece
    }
}

void DmaRecorder::closePoint() {
    if (m_pending < 0) {
        return;
    }
    DmaSeries& s = m_series;
    if (s.timePs.back() == m_pending) { // time 0 replaces the initial point
        s.bytesInFlight.back() = m_bytes;
        s.bytesPerNs.back() = m_rate;
        s.activeTransfers.back() = static_cast<std::uint32_t>(m_active);
    } else {
        s.timePs.push_back(m_pending);
        s.bytesInFlight.push_back(m_bytes);
        s.bytesPerNs.push_back(m_rate);
        s.activeTransfers.push_back(static_cast<std::uint32_t>(m_active));
    }
}

void DmaRecorder::apply(const Step& st) {
    // Each step is applied; the series gets a point per distinct time with the values after the last.
    if (st.time != m_pending) {
        closePoint();
        m_pending = st.time;
    }
    m_bytes += st.bytes;
    m_active += st.active;
    if (st.rate >= 0) {
        m_rate = m_rates[static_cast<std::size_t>(st.rate) - m_rateBase];
    }
}

void DmaRecorder::onWatermark(TimePs time) {
    // Later transfers start at or after `time`, later pieces at or after the end of the last one.
    const TimePs limit = std::min(time, m_bandwidthEnd);
    std::size_t lastRate = m_rateBase;
    m_steps.drainBefore(limit, [&](const Step& st) {
        apply(st);
        lastRate = st.rate >= 0 ? static_cast<std::size_t>(st.rate) : lastRate;
    });
    // Rates before the last one applied are no longer needed.
    if (lastRate > m_rateBase && lastRate - m_rateBase > 4096) {
        m_rates.erase(m_rates.begin(), m_rates.begin() + static_cast<std::ptrdiff_t>(lastRate - m_rateBase));
        m_rateBase = lastRate;
    }
}

void DmaRecorder::finish(SimResult& result) {
    if (m_bandwidthEnd > 0) {
        m_steps.push(m_steps.size() - 1, {m_bandwidthEnd, 0, 0, static_cast<std::int32_t>(m_rateBase + m_rates.size())});
        m_rates.push_back(0.0);
    }
    m_steps.drainAll([this](const Step& st) { apply(st); });
    closePoint();
    m_steps.reset(0);
    m_rates = {};
    result.dma = std::move(m_series);
}

} // namespace kl::sim
