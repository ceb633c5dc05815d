#include "engine/DmaUnit.h"

#include "hw/ProfileFields.h"

#include <algorithm>
#include <cmath>

namespace kl::sim {

namespace {

/// Granted rates within this fraction of the pool count as a full pool, so that pieces filled by
/// several transfers compare equal and merge despite floating-point round-off.
constexpr double kFullTolerance = 1e-9;

} // namespace

DmaUnit::DmaUnit(const HardwareProfile& hw)
    : m_hw(hw),
      m_queueFree(static_cast<std::size_t>(clampToInt(hw.dma.queues, 1, static_cast<std::int64_t>(kMaxDmaQueues))), 0),
      m_latencyPs(clampToInt(std::round(hw.dma.fixedLatencyNs * 1000.0), 0, kMaxDurationPs)),
      m_poolPerPs(std::min(hw.dma.coreBytesPerNs, hw.hbmBytesPerNs) / 1000.0) {
    m_pieces.push_back({0, 0.0, 0.0});
    m_coreQueues = static_cast<std::uint32_t>(m_queueFree.size());
    m_liveEnd = m_coreQueues;
}

void DmaUnit::configureCores(std::uint32_t cores) {
    m_queueFree.assign(static_cast<std::size_t>(m_coreQueues) * cores, 0);
    m_poolPerPs = static_cast<double>(cores) * std::min(m_hw.dma.coreBytesPerNs, m_hw.hbmBytesPerNs) / 1000.0;
    m_issued = 0;
    m_parkedIssued = 0;
    m_queueBase = 0;
    m_liveBegin = 0;
    m_liveEnd = static_cast<std::uint32_t>(m_queueFree.size());
}

void DmaUnit::selectCore(std::uint32_t core) {
    std::swap(m_issued, m_parkedIssued);
    m_queueBase = core * m_coreQueues;
}

void DmaUnit::setOthersLive(bool live) {
    m_liveBegin = live ? 0 : m_queueBase;
    m_liveEnd = live ? static_cast<std::uint32_t>(m_queueFree.size()) : m_queueBase + m_coreQueues;
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
    return *std::min_element(m_queueFree.begin() + m_liveBegin, m_queueFree.begin() + m_liveEnd);
}

void DmaUnit::dropBefore(TimePs time) {
    // Keep the piece containing `time`; everything wholly before it can no longer be asked about.
    while (m_head + 1 < m_pieces.size() && m_pieces[m_head + 1].start <= time) {
        ++m_head;
    }
    const TimePs headStart = m_pieces[m_head].start;
    while (m_fullHead < m_fullRuns.size() && m_fullRuns[m_fullHead].second <= headStart) {
        ++m_fullHead;
    }
    if (m_fullHead > 1024 && m_fullHead * 2 > m_fullRuns.size()) {
        m_fullRuns.erase(m_fullRuns.begin(), m_fullRuns.begin() + static_cast<std::ptrdiff_t>(m_fullHead));
        m_fullHead = 0;
    }
    if (m_head > 4096 && m_head * 2 > m_pieces.size() && m_emitted >= m_head) {
        m_pieces.erase(m_pieces.begin(), m_pieces.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_emitted -= m_head;
        m_head = 0;
    }
}

std::size_t DmaUnit::pieceAt(TimePs t) const {
    const auto first = m_pieces.begin() + static_cast<std::ptrdiff_t>(m_head);
    const auto it = std::upper_bound(first, m_pieces.end(), t, [](TimePs v, const Piece& p) { return v < p.start; });
    // `it` is the first piece starting after t; the piece containing t is the one before it.
    return static_cast<std::size_t>(it - m_pieces.begin()) - 1;
}

void DmaUnit::markFull(TimePs from, TimePs to) {
    // Usually extends the last stretch (grants move forward in time) or adds one after it.
    auto it = std::upper_bound(m_fullRuns.begin() + static_cast<std::ptrdiff_t>(m_fullHead), m_fullRuns.end(), from,
                               [](TimePs v, const auto& run) { return v < run.first; });
    if (it != m_fullRuns.begin() + static_cast<std::ptrdiff_t>(m_fullHead) && std::prev(it)->second >= from) {
        --it; // touches the stretch before: extend it
        it->second = std::max(it->second, to);
    } else {
        it = m_fullRuns.insert(it, {from, to});
    }
    // Absorb the stretches it now reaches.
    auto next = std::next(it);
    auto stop = next;
    while (stop != m_fullRuns.end() && stop->first <= it->second) {
        it->second = std::max(it->second, stop->second);
        ++stop;
    }
    m_fullRuns.erase(next, stop);
}

TimePs DmaUnit::fullRunEnd(TimePs t, TimePs fallback) const {
    const auto it = std::upper_bound(m_fullRuns.begin() + static_cast<std::ptrdiff_t>(m_fullHead), m_fullRuns.end(), t,
                                     [](TimePs v, const auto& run) { return v < run.first; });
    if (it != m_fullRuns.begin() + static_cast<std::ptrdiff_t>(m_fullHead) && std::prev(it)->second > t) {
        return std::prev(it)->second;
    }
    return fallback; // not recorded (cannot happen: every full piece was marked); the next piece
}

void DmaUnit::addSegment(TimePs from, TimePs to, double poolPerPs, double efficiency) {
    const double bytesPerNs = poolPerPs * efficiency * 1000.0;
    if (!m_segments.empty() && m_segments.back().end == from && m_segments.back().bytesPerNs == bytesPerNs) {
        m_segments.back().end = to;
    } else if (to > from) {
        m_segments.push_back({from, to, bytesPerNs});
    }
}

void DmaUnit::mergeEqualNeighbours(std::size_t first, std::size_t last) {
    // Only pieces [first, last] changed or were split off, so only they and their outer neighbours can
    // now equal a neighbour; the rest of the calendar already has no two equal neighbours. Merging keeps
    // the calendar as small as the set of distinct rates.
    const std::size_t lo = std::max(m_head, first > 0 ? first - 1 : 0);
    const std::size_t hi = std::min(last + 1, m_pieces.size() - 1);
    std::size_t out = lo;
    for (std::size_t k = lo + 1; k <= hi; ++k) {
        if (m_pieces[k].used != m_pieces[out].used || m_pieces[k].dataRate != m_pieces[out].dataRate) {
            m_pieces[++out] = m_pieces[k];
        }
    }
    if (out < hi) {
        m_pieces.erase(m_pieces.begin() + static_cast<std::ptrdiff_t>(out + 1),
                       m_pieces.begin() + static_cast<std::ptrdiff_t>(hi + 1));
    }
}

DmaUnit::Transfer DmaUnit::issue(TimePs start, std::int64_t bytes, double bytesPerPartition, std::int64_t partitions,
                                 double efficiencyScale) {
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
    t.efficiency *= efficiencyScale;
    t.dataStart = start + m_latencyPs;
    const double engines = std::clamp(std::ceil(static_cast<double>(std::max<std::int64_t>(partitions, 1)) /
                                                std::max(m_hw.dma.partitionsPerEngine, 1.0)),
                                      1.0, std::max(m_hw.dma.engines, 1.0));
    const double capPerPs = std::min(engines * m_hw.dma.engineBytesPerNs / 1000.0, m_poolPerPs);
    double remaining = static_cast<double>(std::max<std::int64_t>(bytes, 0)) / t.efficiency; // pool bytes
    dropBefore(earliestQueueFree() + m_latencyPs);
    m_segments.clear();

    TimePs now = t.dataStart;
    std::size_t i = pieceAt(now);
    std::size_t firstGrant = m_pieces.size();
    while (remaining > 0) {
        const double free = m_poolPerPs - m_pieces[i].used;
        const double rate = free > m_poolPerPs * kFullTolerance ? std::min(capPerPs, free) : 0.0;
        if (rate <= 0) {
            // Full (the last piece never is: every grant ends, and the piece after its end keeps the
            // ungranted rate of before, 0 for the last piece): go on at the end of this full stretch.
            now = fullRunEnd(m_pieces[i].start, m_pieces[i + 1].start);
            i = pieceAt(now);
            continue;
        }
        if (m_pieces[i].start < now) {
            // Grants start inside this piece: split it (the part before keeps its grant).
            m_pieces.insert(m_pieces.begin() + static_cast<std::ptrdiff_t>(i + 1),
                            Piece{now, m_pieces[i].used, m_pieces[i].dataRate});
            ++i;
        }
        firstGrant = std::min(firstGrant, i);
        const bool last = i + 1 == m_pieces.size();
        const TimePs end = now + durationPs(std::ceil(remaining / rate));
        TimePs until = end;
        if (!last && m_pieces[i + 1].start < end) {
            until = m_pieces[i + 1].start; // take the whole piece and go on
            remaining -= rate * static_cast<double>(until - now);
        } else {
            if (last || m_pieces[i + 1].start > end) {
                // Ends inside this piece: the part after keeps its old grant.
                m_pieces.insert(m_pieces.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                Piece{end, m_pieces[i].used, m_pieces[i].dataRate});
            }
            remaining = 0;
        }
        Piece& p = m_pieces[i];
        p.used += rate;
        p.dataRate += rate * t.efficiency;
        if (m_poolPerPs - p.used <= m_poolPerPs * kFullTolerance) {
            p.used = m_poolPerPs;
            markFull(p.start, m_pieces[i + 1].start);
        }
        addSegment(now, until, rate, t.efficiency);
        now = until;
        ++i;
    }
    if (firstGrant < m_pieces.size()) {
        mergeEqualNeighbours(firstGrant, i);
    }
    t.end = std::max(now, t.dataStart);
    m_queueFree[queue] = t.end;
    t.segments = m_segments;
    return t;
}

} // namespace kl::sim
