#include "engine/DmaUnit.h"

#include <algorithm>
#include <cmath>

namespace kl::sim {

DmaUnit::DmaUnit(const HardwareProfile& hw)
    : m_hw(hw),
      m_queueFree(static_cast<std::size_t>(std::max(1.0, hw.dma.queues)), 0),
      m_latencyPs(static_cast<TimePs>(std::llround(hw.dma.fixedLatencyNs * 1000.0))),
      m_poolBytesPerSlot(std::min(hw.dma.coreBytesPerNs, hw.hbmBytesPerNs) * static_cast<double>(kSlotPs) / 1000.0) {}

TimePs DmaUnit::earliestQueueFree() const { return *std::min_element(m_queueFree.begin(), m_queueFree.end()); }

void DmaUnit::dropSlotsBefore(TimePs time) {
    const std::int64_t slot = time / kSlotPs;
    while (m_firstSlot < slot && !m_used.empty()) {
        m_used.pop_front();
        ++m_firstSlot;
    }
    if (m_used.empty()) {
        m_firstSlot = std::max(m_firstSlot, slot);
    }
}

DmaUnit::Transfer DmaUnit::issue(TimePs start, std::int64_t bytes, double bytesPerPartition, std::int64_t partitions) {
    const std::uint32_t queue = nextQueue();
    ++m_issued;
    Transfer t;
    t.efficiency = m_hw.dmaEfficiency(bytesPerPartition);
    t.dataStart = start + m_latencyPs;
    const double engines = std::clamp(std::ceil(static_cast<double>(std::max<std::int64_t>(partitions, 1)) /
                                                std::max(m_hw.dma.partitionsPerEngine, 1.0)),
                                      1.0, std::max(m_hw.dma.engines, 1.0));
    // Pool bytes this transfer may draw per picosecond (its cap) and in total.
    const double capPerPs = std::min(engines * m_hw.dma.engineBytesPerNs, m_hw.dma.coreBytesPerNs) / 1000.0;
    double remaining = static_cast<double>(std::max<std::int64_t>(bytes, 0)) / t.efficiency;
    dropSlotsBefore(earliestQueueFree() + m_latencyPs);
    TimePs now = t.dataStart;
    m_segments.clear();
    // Records the rate in [from, to); extends the previous segment when the rate is unchanged.
    const auto segment = [&](TimePs from, TimePs to, double poolPerPs) {
        const double bytesPerNs = poolPerPs * t.efficiency * 1000.0;
        if (!m_segments.empty() && m_segments.back().end == from && m_segments.back().bytesPerNs == bytesPerNs) {
            m_segments.back().end = to;
        } else if (to > from) {
            m_segments.push_back({from, to, bytesPerNs});
        }
    };
    while (remaining > 0) {
        const std::int64_t slot = now / kSlotPs;
        if (slot < m_firstSlot) { // only when a queue restarts earlier than the dropped range: no contention
            now = m_firstSlot * kSlotPs;
            continue;
        }
        const auto idx = static_cast<std::size_t>(slot - m_firstSlot);
        if (idx >= m_used.size()) {
            m_used.resize(idx + 1, 0.0);
        }
        const TimePs slotEnd = (slot + 1) * kSlotPs;
        const auto dt = static_cast<double>(slotEnd - now);
        const double free = std::max(0.0, std::min(m_poolBytesPerSlot - m_used[idx], m_poolBytesPerSlot * dt / kSlotPs));
        const double rate = std::min(capPerPs, free / dt); // pool bytes per ps this transfer gets in the slot
        if (rate <= 0) {
            now = slotEnd;
            continue;
        }
        if (remaining <= rate * dt) {
            m_used[idx] += remaining;
            const TimePs to = now + static_cast<TimePs>(std::ceil(remaining / rate));
            segment(now, to, remaining / static_cast<double>(to - now));
            now = to;
            remaining = 0;
        } else {
            m_used[idx] += rate * dt;
            remaining -= rate * dt;
            segment(now, slotEnd, rate);
            now = slotEnd;
        }
    }
    t.end = std::max(now, t.dataStart);
    m_queueFree[queue] = t.end;
    t.segments = m_segments;
    return t;
}

} // namespace kl::sim
