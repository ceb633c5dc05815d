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
    std::size_t transfers = 0;
    for (const Instruction& in : ir.instructions()) {
        transfers += in.engine == Engine::Dma ? 1 : 0;
    }
    m_steps.assign(m_series.queues, {});
    for (auto& q : m_steps) {
        q.reserve(transfers * 8 / std::max<std::size_t>(m_steps.size(), 1) + 16);
    }
}

void DmaRecorder::onDmaTransfer(const DmaTransferEvent& e) {
    ++m_series.transfers;
    m_series.bytes += e.bytes;
    m_series.hbmBytes += e.touchesHbm ? e.bytes : 0;
    if (e.queue >= m_steps.size()) {
        m_steps.resize(e.queue + 1);
    }
    auto& q = m_steps[e.queue];
    q.push_back({e.start, e.bytes, 0.0, 1});
    for (const DmaRateSegment& s : e.segments) {
        q.push_back({s.start, 0, s.bytesPerNs, 0});
        q.push_back({s.end, 0, -s.bytesPerNs, 0});
    }
    q.push_back({e.end, -e.bytes, 0.0, -1});
}

void DmaRecorder::finish(SimResult& result) {
    std::int64_t bytes = 0;
    double rate = 0;
    std::int64_t active = 0;
    m_series.timePs.push_back(0);
    m_series.bytesInFlight.push_back(0);
    m_series.bytesPerNs.push_back(0);
    m_series.activeTransfers.push_back(0);
    // Each step is applied, then the series gets a point per distinct time (the last value at that time).
    TimePs pending = -1;
    const auto flush = [&] {
        if (pending < 0) {
            return;
        }
        const TimePs time = pending;
        if (active == 0 || std::abs(rate) < 1e-9) {
            rate = active == 0 ? 0.0 : std::max(rate, 0.0); // keep summed round-off from drifting
        }
        if (m_series.timePs.back() == time) {
            m_series.bytesInFlight.back() = bytes;
            m_series.bytesPerNs.back() = rate;
            m_series.activeTransfers.back() = static_cast<std::uint32_t>(active);
        } else {
            m_series.timePs.push_back(time);
            m_series.bytesInFlight.push_back(bytes);
            m_series.bytesPerNs.push_back(rate);
            m_series.activeTransfers.push_back(static_cast<std::uint32_t>(active));
        }
    };
    mergeSorted(m_steps, [](const Step& s) { return s.time; }, [&](const Step& s) {
        if (s.time != pending) {
            flush();
            pending = s.time;
        }
        bytes += s.bytes;
        rate += s.rate;
        active += s.active;
    });
    flush();
    m_steps = {};
    result.dma = std::move(m_series);
}

} // namespace kl::sim
