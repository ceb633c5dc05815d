#pragma once

#include "engine/SimEvents.h"
#include "engine/SimTypes.h"
#include "hw/HardwareProfile.h"

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace kl::sim {

/// The DMA side of a core: in-order queues and the bandwidth they share.
///
/// Transfers are given to queues round-robin in issue order (transfer k goes to queue k mod Q). A
/// transfer waits for the previous one in its queue, then pays the fixed latency, then moves its bytes.
/// Data movement draws from one bandwidth pool per core (min of the practical DMA bandwidth and the HBM
/// bandwidth), kept as a calendar of fixed-width time slots: a transfer fills, slot by slot, what the
/// earlier-issued transfers left, at most at its own cap (engines it fans out to x per-engine
/// bandwidth). A transfer with efficiency e (small bytes per partition) uses 1/e of the pool per byte.
/// Earlier-issued transfers keep their share, so the result does not depend on anything issued later:
/// a deterministic approximation of fair sharing (docs/simulator.md).
class DmaUnit {
public:
    explicit DmaUnit(const HardwareProfile& hw);

    [[nodiscard]] std::uint32_t queueCount() const { return static_cast<std::uint32_t>(m_queueFree.size()); }
    /// The queue the next transfer goes to, and when that queue is free.
    [[nodiscard]] std::uint32_t nextQueue() const { return static_cast<std::uint32_t>(m_issued % m_queueFree.size()); }
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
    Transfer issue(TimePs start, std::int64_t bytes, double bytesPerPartition, std::int64_t partitions);
    /// Earliest time any queue can start a transfer; slots before it are dropped.
    [[nodiscard]] TimePs earliestQueueFree() const;

private:
    /// Slot width of the bandwidth calendar. A modelling resolution, not a hardware number: 32 ns keeps a
    /// 1 µs transfer to ~30 slot updates while staying far below the 1.3 µs fixed latency.
    static constexpr TimePs kSlotPs = 32'000;

    void dropSlotsBefore(TimePs time);

    const HardwareProfile& m_hw;
    std::vector<TimePs> m_queueFree;
    std::uint64_t m_issued = 0;
    TimePs m_latencyPs = 0;
    double m_poolBytesPerSlot = 0;
    std::vector<DmaRateSegment> m_segments;
    std::deque<double> m_used; ///< pool bytes used per slot, m_used[0] is slot m_firstSlot
    std::int64_t m_firstSlot = 0;
};

} // namespace kl::sim
