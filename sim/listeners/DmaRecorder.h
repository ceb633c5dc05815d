#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <vector>

namespace kl::sim {

/// DMA activity over time: bytes in flight (issued, not finished), transfers active, and the aggregate
/// data rate exactly as the DmaUnit's bandwidth calendar granted it.
///
///   dma: 4096 transfers, 512.0 MiB (hbm 512.0 MiB), peak 16 in flight, peak 271.9 B/ns
class DmaRecorder : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onDmaTransfer(const DmaTransferEvent& e) override;
    void onDmaBandwidth(const DmaBandwidthEvent& e) override;
    void onDmaBandwidths(std::span<const DmaBandwidthEvent> events) override;
    void finish(SimResult& result) override;

private:
    /// 24 bytes: the lists hold two steps per transfer, so the merge at the end streams them.
    struct Step {
        TimePs time;
        std::int64_t bytes;  ///< change of bytes in flight
        std::int32_t active; ///< change of active transfers
        std::int32_t rate;   ///< index into m_rates of the new aggregate rate, -1 if it does not set one
    };
    /// Per queue, in time order (queues run in order), plus a last list with the bandwidth calendar's
    /// pieces (already in time order): merged at the end without sorting.
    std::vector<std::vector<Step>> m_steps;
    std::vector<double> m_rates; ///< the bandwidth calendar's rates, in order
    TimePs m_bandwidthEnd = 0;
    DmaSeries m_series;
};

} // namespace kl::sim
