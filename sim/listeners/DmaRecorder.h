#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <vector>

namespace kl::sim {

/// DMA activity over time: bytes in flight (issued, not finished), transfers active and the aggregate
/// data rate, built from each transfer's constant-rate segments as the bandwidth calendar granted them.
///
///   dma: 4096 transfers, 512.0 MiB (hbm 512.0 MiB), peak 16 in flight, peak 271.9 B/ns
class DmaRecorder : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onDmaTransfer(const DmaTransferEvent& e) override;
    void finish(SimResult& result) override;

private:
    struct Step {
        TimePs time;
        std::int64_t bytes;
        double rate;
        std::int32_t active;
    };
    std::vector<std::vector<Step>> m_steps; ///< per queue, in time order (queues run in order)
    DmaSeries m_series;
};

} // namespace kl::sim
