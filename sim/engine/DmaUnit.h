#pragma once

#include "engine/SimEvents.h"
#include "engine/SimTypes.h"
#include "hw/HardwareProfile.h"

#include <array>
#include <cstdint>
#include <utility>
#include <span>
#include <vector>

namespace kl::sim {

/// The DMA side of a core: in-order queues and the bandwidth they share.
///
/// Transfers are given to queues round-robin in issue order (transfer k goes to queue k mod Q). A
/// transfer waits for the previous one in its queue, then pays the fixed latency, then moves its bytes.
/// Data movement draws from one bandwidth pool per core (min of the practical DMA bandwidth and the HBM
/// bandwidth). The pool is a bandwidth calendar: a piecewise-constant function of time giving the rate
/// already granted. A new transfer takes, from its data start on, what the earlier-issued transfers left,
/// at most at its own cap (engines it fans out to x per-engine bandwidth); a transfer with efficiency e
/// (small bytes per partition) draws 1/e of the pool per byte. Earlier-issued transfers keep their
/// share, so a result never depends on anything issued later: a deterministic approximation of fair
/// sharing (docs/simulator.md). Calendar pieces before the earliest time any queue can start are dropped.
class DmaUnit {
public:
    explicit DmaUnit(const HardwareProfile& hw);

    [[nodiscard]] std::uint32_t queueCount() const { return static_cast<std::uint32_t>(m_queueFree.size()); }
    /// Queues of one physical core (the profile's dma.queues).
    [[nodiscard]] std::uint32_t coreQueueCount() const { return m_coreQueues; }
    /// The queue the next transfer goes to, and when that queue is free.
    [[nodiscard]] std::uint32_t nextQueue() const {
        return m_queueBase + static_cast<std::uint32_t>(m_issued % m_coreQueues);
    }
    /// Logical NeuronCores: `cores` sets of queues (core c's are [c x Q, (c + 1) x Q)) drawing from one pool of
    /// `cores` times a core's bandwidth, the HBM stack the pair shares (docs/simulator.md). Before any issue.
    void configureCores(std::uint32_t cores);
    /// Transfers go to `core`'s queues from now on, round-robin in that core's own issue order.
    void selectCore(std::uint32_t core);
    /// Whether another core may still issue: if not, only the selected core's queues hold the calendar back.
    void setOthersLive(bool live);
    [[nodiscard]] TimePs queueFree(std::uint32_t queue) const { return m_queueFree[queue]; }
    [[nodiscard]] TimePs fixedLatencyPs() const { return m_latencyPs; }

    struct Transfer {
        TimePs dataStart = 0;
        TimePs end = 0;
        double efficiency = 1;
        /// Intervals of constant data rate, in time order; valid until the next issue().
        std::span<const DmaRateSegment> segments;
    };
    /// Issues the next transfer (on nextQueue()) starting at `start`.
    /// `efficiencyScale` multiplies the table's efficiency (a DMA transpose moves data at a fraction of a copy's rate).
    Transfer issue(TimePs start, std::int64_t bytes, double bytesPerPartition, std::int64_t partitions,
                   double efficiencyScale = 1.0);
    /// Earliest time any queue can start a transfer.
    [[nodiscard]] TimePs earliestQueueFree() const;
    /// Calendar pieces that can no longer change (all of them once `all`), as aggregate data rates in
    /// time order; each call returns the pieces finalised since the previous one.
    [[nodiscard]] std::span<const DmaBandwidthEvent> takeFinal(bool all);

private:
    /// One piece of the calendar: from `start` to the next piece's start, `used` pool bytes per ps are granted.
    struct Piece {
        TimePs start;
        double used;     ///< pool bytes per ps granted
        double dataRate; ///< bytes per ps actually moved (used x each transfer's efficiency)
    };
    /// Index of the piece containing `t` (at or after m_head).
    [[nodiscard]] std::size_t pieceAt(TimePs t) const;
    /// Records that the pool is fully granted over [from, to).
    void markFull(TimePs from, TimePs to);
    /// End of the fully granted stretch containing `t` (a piece start: the first piece after it has room).
    [[nodiscard]] TimePs fullRunEnd(TimePs t, TimePs fallback) const;
    void dropBefore(TimePs time);
    /// Merges equal neighbours among pieces [first - 1, last + 1] (the ones an issue touched).
    void mergeEqualNeighbours(std::size_t first, std::size_t last);
    void addSegment(TimePs from, TimePs to, double poolPerPs, double efficiency);

    const HardwareProfile& m_hw;
    std::vector<TimePs> m_queueFree;
    std::uint64_t m_issued = 0;       ///< by the selected core
    std::uint64_t m_parkedIssued = 0; ///< by the other core (LNC 2)
    std::uint32_t m_coreQueues = 1;
    std::uint32_t m_queueBase = 0; ///< first queue of the selected core
    std::uint32_t m_liveBegin = 0; ///< queues that can still issue: [m_liveBegin, m_liveEnd)
    std::uint32_t m_liveEnd = 1;
    TimePs m_latencyPs = 0;
    double m_poolPerPs = 0;
    std::vector<Piece> m_pieces; ///< sorted by start from m_head on; the last piece extends to infinity
    std::size_t m_head = 0;
    /// Time stretches where the pool is fully granted (the union of the full pieces), sorted, disjoint and
    /// not touching, from m_fullHead on. Grants only grow, so a stretch never shrinks: a transfer that
    /// meets a full piece jumps over the whole stretch instead of visiting its pieces one by one (under a
    /// DMA-bound load the calendar ahead is full for many pieces).
    std::vector<std::pair<TimePs, TimePs>> m_fullRuns;
    std::size_t m_fullHead = 0;
    std::vector<DmaRateSegment> m_segments;
    std::array<std::pair<double, double>, 4> m_efficiencyCache{{{-1, 1}, {-1, 1}, {-1, 1}, {-1, 1}}};
    std::size_t m_efficiencyNext = 0;
    std::size_t m_emitted = 0; ///< pieces before this index were handed out by takeFinal
    std::vector<DmaBandwidthEvent> m_final;
};

} // namespace kl::sim
