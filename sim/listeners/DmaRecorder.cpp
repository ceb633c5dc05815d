#include "listeners/DmaRecorder.h"

#include "hw/HardwareProfile.h"

#include <algorithm>
#include <cmath>

namespace kl::sim {

void DmaRecorder::onStart(const KernelIr&, const HardwareProfile& hw) {
    m_steps.clear();
    m_series = {};
    m_series.queues = static_cast<std::uint32_t>(hw.dma.queues);
}

void DmaRecorder::onDmaTransfer(const DmaTransferEvent& e) {
    ++m_series.transfers;
    m_series.bytes += e.bytes;
    m_series.hbmBytes += e.touchesHbm ? e.bytes : 0;
    m_steps.push_back({e.start, e.bytes, 0.0, 1});
    m_steps.push_back({e.end, -e.bytes, 0.0, -1});
    for (const DmaRateSegment& s : e.segments) {
        m_steps.push_back({s.start, 0, s.bytesPerNs, 0});
        m_steps.push_back({s.end, 0, -s.bytesPerNs, 0});
    }
}

void DmaRecorder::finish(SimResult& result) {
    std::stable_sort(m_steps.begin(), m_steps.end(), [](const Step& a, const Step& b) { return a.time < b.time; });
    std::int64_t bytes = 0;
    double rate = 0;
    std::int64_t active = 0;
    m_series.timePs.push_back(0);
    m_series.bytesInFlight.push_back(0);
    m_series.bytesPerNs.push_back(0);
    m_series.activeTransfers.push_back(0);
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        bytes += m_steps[i].bytes;
        rate += m_steps[i].rate;
        active += m_steps[i].active;
        if (i + 1 < m_steps.size() && m_steps[i + 1].time == m_steps[i].time) {
            continue;
        }
        if (active == 0 || std::abs(rate) < 1e-9) {
            rate = active == 0 ? 0.0 : std::max(rate, 0.0); // keep summed round-off from drifting
        }
        if (m_series.timePs.back() == m_steps[i].time) {
            m_series.bytesInFlight.back() = bytes;
            m_series.bytesPerNs.back() = rate;
            m_series.activeTransfers.back() = static_cast<std::uint32_t>(active);
        } else {
            m_series.timePs.push_back(m_steps[i].time);
            m_series.bytesInFlight.push_back(bytes);
            m_series.bytesPerNs.push_back(rate);
            m_series.activeTransfers.push_back(static_cast<std::uint32_t>(active));
        }
    }
    m_steps.clear();
    m_steps.shrink_to_fit();
    result.dma = std::move(m_series);
}

} // namespace kl::sim
