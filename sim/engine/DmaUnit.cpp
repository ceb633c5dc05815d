#include "engine/DmaUnit.h"

#include <algorithm>
#include <cmath>

namespace kl::sim {

namespace {

/// Granted rates within this fraction of the pool count as a full pool, so that pieces filled by
/// several transfers compare equal and merge despite floating-point round-off.
constexpr double kFullTolerance = 1e-9;

} // namespace

DmaUnit::DmaUnit(const HardwareProfile& hw)
    : m_hw(hw), m_queueFree(static_cast<std::size_t>(std::max(1.0, hw.dma.queues)), 0),
      m_latencyPs(static_cast<TimePs>(std::llround(hw.dma.fixedLatencyNs * 1000.0))),
      m_poolPerPs(std::min(hw.dma.coreBytesPerNs, hw.hbmBytesPerNs) / 1000.0) {
    m_pieces.push_back({0, 0.0, 0.0});
}

std::span<const DmaBandwidthEvent> DmaUnit::takeFinal(bool all) {
    m_final.clear();
    // Pieces before m_head are final; so is everything when the run is over (the last piece, open-ended
    // at rate 0, is left out).
    const std::size_t limit = all ? m_pieces.size() - 1 : m_head;
    for (; m_emitted < limit; ++m_emitted) {
        const Piece& p = m_pieces[m_emitted];
        m_final.push_back({p.start, m_pieces[m_emitted + 1].start, p.dataRate * 1000.0});
    }
    return m_final;
}

TimePs DmaUnit::earliestQueueFree() const {
    return *std::min_element(m_queueFree.begin(), m_queueFree.end());
}

void DmaUnit::dropBefore(TimePs time) {
    // Keep the piece containing `time`; everything wholly before it can no longer be asked about.
    while (m_head + 1 < m_pieces.size() && m_pieces[m_head + 1].start <= time) {
        ++m_head;
    }
    if (m_head > 4096 && m_head * 2 > m_pieces.size() && m_emitted >= m_head) {
        m_pieces.erase(m_pieces.begin(), m_pieces.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_emitted -= m_head;
        m_head = 0;
    }
}

std::size_t DmaUnit::splitAt(TimePs t) {
    const auto first = m_pieces.begin() + static_cast<std::ptrdiff_t>(m_head);
    auto it = std::upper_bound(first, m_pieces.end(), t, [](TimePs v, const Piece& p) { return v < p.start; });
    // `it` is the first piece starting after t; the piece containing t is the one before it.
    const auto containing = static_cast<std::size_t>(it - m_pieces.begin()) - 1;
    if (m_pieces[containing].start == t) {
        return containing;
    }
    m_pieces.insert(it, Piece{t, m_pieces[containing].used, m_pieces[containing].dataRate});
    return containing + 1;
}

void DmaUnit::addSegment(TimePs from, TimePs to, double poolPerPs, double efficiency) {
    const double bytesPerNs = poolPerPs * efficiency * 1000.0;
    if (!m_segments.empty() && m_segments.back().end == from && m_segments.back().bytesPerNs == bytesPerNs) {
        m_segments.back().end = to;
    } else if (to > from) {
        m_segments.push_back({from, to, bytesPerNs});
    }
}

DmaUnit::Transfer DmaUnit::issue(TimePs start, std::int64_t bytes, double bytesPerPartition, std::int64_t partitions) {
    const std::uint32_t queue = nextQueue();
    ++m_issued;
    Transfer t;
    // Loops issue the same few transfer shapes again and again: remember the last lookups.
    t.efficiency = -1;
    for (const auto& [key, value] : m_efficiencyCache) {
        if (key == bytesPerPartition) {
            t.efficiency = value;
        }
    }
    if (t.efficiency < 0) {
        t.efficiency = m_hw.dmaEfficiency(bytesPerPartition);
        m_efficiencyCache[m_efficiencyNext++ % m_efficiencyCache.size()] = {bytesPerPartition, t.efficiency};
    }
    t.dataStart = start + m_latencyPs;
    const double engines = std::clamp(std::ceil(static_cast<double>(std::max<std::int64_t>(partitions, 1)) /
                                                std::max(m_hw.dma.partitionsPerEngine, 1.0)),
                                      1.0, std::max(m_hw.dma.engines, 1.0));
    const double capPerPs = std::min(engines * m_hw.dma.engineBytesPerNs / 1000.0, m_poolPerPs);
    double remaining = static_cast<double>(std::max<std::int64_t>(bytes, 0)) / t.efficiency; // pool bytes
    dropBefore(earliestQueueFree() + m_latencyPs);
    m_segments.clear();

    TimePs now = t.dataStart;
    std::size_t i = splitAt(now);
    while (remaining > 0) {
        const bool last = i + 1 == m_pieces.size();
        const double free = m_poolPerPs - m_pieces[i].used;
        const double rate = free > m_poolPerPs * kFullTolerance ? std::min(capPerPs, free) : 0.0;
        if (rate <= 0) {
            // Full. The last piece never is: every grant ends, and the piece after its end keeps the
            // ungranted rate of before (0 for the last piece).
            now = m_pieces[i + 1].start;
            ++i;
            continue;
        }
        const TimePs end = now + static_cast<TimePs>(std::ceil(remaining / rate));
        TimePs until = end;
        if (!last && m_pieces[i + 1].start < end) {
            until = m_pieces[i + 1].start; // take the whole piece and go on
            remaining -= rate * static_cast<double>(until - now);
        } else {
            splitAt(end); // ends inside this piece: the part after keeps its old grant
            remaining = 0;
        }
        m_pieces[i].used += rate;
        m_pieces[i].dataRate += rate * t.efficiency;
        if (m_poolPerPs - m_pieces[i].used <= m_poolPerPs * kFullTolerance) {
            m_pieces[i].used = m_poolPerPs;
        }
        addSegment(now, until, rate, t.efficiency);
        now = until;
        ++i;
    }
    // Merge neighbours with the same grant so the calendar stays as small as the set of distinct rates.
    std::size_t out = m_head;
    for (std::size_t k = m_head + 1; k < m_pieces.size(); ++k) {
        if (m_pieces[k].used != m_pieces[out].used || m_pieces[k].dataRate != m_pieces[out].dataRate) {
            m_pieces[++out] = m_pieces[k];
        }
    }
    m_pieces.resize(out + 1);
    t.end = std::max(now, t.dataStart);
    m_queueFree[queue] = t.end;
    t.segments = m_segments;
    return t;
}

} // namespace kl::sim
