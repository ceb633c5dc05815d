#pragma once

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

private:
    /// 24 bytes: two steps per transfer and one per calendar piece.
    struct Step {
        TimePs time;
        std::int64_t bytes;  ///< change of bytes in flight
        std::int32_t active; ///< change of active transfers
        std::int32_t rate;   ///< index into m_rates of the new aggregate rate, -1 if it does not set one
    };
    struct TimeOf {
        TimePs operator()(const Step& s) const { return s.time; }
    };
    void apply(const Step& s);
    /// Ends the series point of the time being applied, if any.
    void closePoint();

    TimeOrderedLists<Step, TimeOf> m_steps; ///< per queue, and a last list with the calendar's pieces
    std::vector<double> m_rates;            ///< rates of the pieces not yet applied, from m_rateBase on
    std::size_t m_rateBase = 0;
    TimePs m_bandwidthEnd = 0; ///< end of the last piece: no later piece starts before it
    // The running state and the point being built.
    std::int64_t m_bytes = 0;
    std::int64_t m_active = 0;
    double m_rate = 0;
    TimePs m_pending = -1;
    DmaSeries m_series;
};

} // namespace kl::sim
