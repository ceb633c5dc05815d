#include "listeners/DmaRecorder.h"

#include "hw/HardwareProfile.h"
#include "hw/ProfileFields.h"
#include "ir/KernelIr.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace kl::sim {

// Active transfers are at most the queues of both cores of a logical core (a queue runs one at a time).
static_assert(kMaxDmaQueues * 2 <= 65535, "DmaSeries::activeTransfers is 16-bit");

void DmaRecorder::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_series = {};
    m_series.queues = static_cast<std::uint32_t>(hw.dma.queues) * static_cast<std::uint32_t>(std::max(ir.lnc, 1));
    m_steps.reset(std::max<std::size_t>(m_series.queues, 1));
    m_rates.clear();
    m_rateHead = 0;
    m_bandwidthEnd = 0;
    m_bytes = 0;
    m_active = 0;
    m_rate = 0;
    m_pending = -1;
    m_tooLargeAt = -1;
    m_tooLargeBytes = 0;
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
    const std::size_t queue = std::min<std::size_t>(e.queue, m_steps.size() - 1);
    // A queue's next transfer often starts when its previous one ends: fold the two steps into one (the
    // series only keeps the state after all steps at one time, so the result is the same).
    if (Step* last = m_steps.last(queue); last != nullptr && last->time == e.start) {
        last->bytes += e.bytes;
        last->active += 1;
    } else {
        m_steps.push(queue, {e.start, e.bytes, 1});
    }
    m_steps.push(queue, {e.end, -e.bytes, -1});
}

void DmaRecorder::onDmaBandwidth(const DmaBandwidthEvent& e) {
    m_rates.push_back({e.start, e.bytesPerNs});
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
    if ((m_bytes > DmaSeries::kMaxBytesInFlight || m_bytes < -DmaSeries::kMaxBytesInFlight) && m_tooLargeAt < 0)
        [[unlikely]] {
        m_tooLargeAt = m_pending;
        m_tooLargeBytes = m_bytes;
    }
    const auto inFlight = static_cast<std::int32_t>(m_bytes);
    if (s.timePs.back() == m_pending) { // time 0 replaces the initial point
        s.bytesInFlight.back() = inFlight;
        s.bytesPerNs.back() = m_rate;
        s.activeTransfers.back() = static_cast<std::uint16_t>(m_active);
    } else {
        s.timePs.push_back(m_pending);
        s.bytesInFlight.push_back(inFlight);
        s.bytesPerNs.push_back(m_rate);
        s.activeTransfers.push_back(static_cast<std::uint16_t>(m_active));
    }
}

void DmaRecorder::applyStep(TimePs time, std::int64_t bytes, std::int64_t active) {
    // Each step is applied; the series gets a point per distinct time with the values after the last.
    if (time != m_pending) {
        closePoint();
        m_pending = time;
    }
    m_bytes += bytes;
    m_active += active;
}

void DmaRecorder::applyRatesBefore(TimePs time) {
    for (; m_rateHead < m_rates.size() && m_rates[m_rateHead].start < time; ++m_rateHead) {
        applyStep(m_rates[m_rateHead].start, 0, 0);
        m_rate = m_rates[m_rateHead].bytesPerNs;
    }
}

void DmaRecorder::onWatermark(TimePs time) {
    // Later transfers start at or after `time`, later pieces at or after the end of the last one.
    const TimePs limit = std::min(time, m_bandwidthEnd);
    m_steps.drainBefore(limit, [this](const Step& st) {
        applyRatesBefore(st.time);
        applyStep(st.time, st.bytes, st.active);
    });
    applyRatesBefore(limit);
    if (m_rateHead > 4096 && m_rateHead * 2 > m_rates.size()) {
        m_rates.erase(m_rates.begin(), m_rates.begin() + static_cast<std::ptrdiff_t>(m_rateHead));
        m_rateHead = 0;
    }
}

void DmaRecorder::finish(SimResult& result) {
    if (m_bandwidthEnd > 0) {
        m_rates.push_back({m_bandwidthEnd, 0.0}); // after the last piece, nothing is granted
    }
    m_steps.drainAll([this](const Step& st) {
        applyRatesBefore(st.time);
        applyStep(st.time, st.bytes, st.active);
    });
    applyRatesBefore(std::numeric_limits<TimePs>::max());
    closePoint();
    m_steps.reset(0);
    m_rates = {};
    result.dma = std::move(m_series);
}

Expected<void> DmaRecorder::check() const {
    if (m_tooLargeAt >= 0) {
        return makeError(
            ErrorCode::Unsupported,
            fmt::format("{} bytes of DMA transfers are in flight at once at {:.3f} us; the DMA series holds "
                        "at most {} bytes (2 GiB) in flight: split the largest transfers",
                        m_tooLargeBytes, static_cast<double>(m_tooLargeAt) / 1e6, DmaSeries::kMaxBytesInFlight));
    }
    return {};
}

} // namespace kl::sim
