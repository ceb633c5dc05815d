#pragma once

#include "common/Error.h"
#include "engine/SimListener.h"
#include "listeners/TimeOrderedLists.h"
#include "result/SimResult.h"

#include <cstdint>
#include <vector>

namespace kl::sim {

/// DMA activity over time: bytes in flight (issued, not finished), transfers active, and the aggregate
/// data rate exactly as the DmaUnit's bandwidth calendar granted it. Steps are kept per queue (a queue
/// runs in order) plus one list for the calendar's pieces, and leave as series points in time order at
/// each watermark.
///
///   dma: 4096 transfers, 512.0 MiB (hbm 512.0 MiB), peak 16 in flight, peak 271.9 B/ns
class DmaRecorder : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onDmaTransfer(const DmaTransferEvent& e) override;
    void onDmaBandwidth(const DmaBandwidthEvent& e) override;
    void onDmaBandwidths(std::span<const DmaBandwidthEvent> events) override;
    void onWatermark(TimePs time) override;
    void finish(SimResult& result) override;
    /// After finish: an error when the bytes in flight passed what the 32-bit series holds
    /// (DmaSeries::kMaxBytesInFlight); the run must then be refused, not shown with cut values.
    [[nodiscard]] Expected<void> check() const;

private:
    /// A transfer's start or end on its queue (the start of a queue's next transfer folded into the end
    /// of its previous one when they meet).
    struct Step {
        TimePs time;
        std::int64_t bytes;  ///< change of bytes in flight
        std::int64_t active; ///< change of active transfers
    };
    struct TimeOf {
        TimePs operator()(const Step& s) const { return s.time; }
    };
    /// A calendar piece: from `start` on, the aggregate rate is `bytesPerNs`.
    struct Rate {
        TimePs start;
        double bytesPerNs;
    };
    void applyStep(TimePs time, std::int64_t bytes, std::int64_t active);
    /// Applies the calendar pieces that start before `time` (strictly: at one instant transfer steps go
    /// first, as the lower list in the merge order).
    void applyRatesBefore(TimePs time);
    /// Ends the series point of the time being applied, if any.
    void closePoint();

    TimeOrderedLists<Step, TimeOf> m_steps; ///< per queue
    /// Calendar pieces not yet applied, in time order from m_rateHead on (they arrive in order: a plain
    /// two-way merge with the transfer steps, not a heap entry each).
    std::vector<Rate> m_rates;
    std::size_t m_rateHead = 0;
    TimePs m_bandwidthEnd = 0; ///< end of the last piece: no later piece starts before it
    // The running state and the point being built.
    std::int64_t m_bytes = 0;
    std::int64_t m_active = 0;
    double m_rate = 0;
    TimePs m_pending = -1;
    TimePs m_tooLargeAt = -1; ///< the first point whose bytes in flight the series cannot hold, if any
    std::int64_t m_tooLargeBytes = 0;
    DmaSeries m_series;
};

} // namespace kl::sim
