#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <vector>

#include "engine/SimTypes.h"

namespace kl::sim {

/// Turns tile allocate/free events into SBUF and PSUM occupancy step series (bytes and bytes per
/// partition over time), with peaks, capacity and the count of tiles that overflowed. Frees at the
/// same instant as an allocation are applied first, matching how the MemoryUnit placed the tile.
///
///   sbuf: peak 12.0 MiB (98304 B/partition, 50.0 % of 192 KiB), 96 tiles, 0 overflow
class OccupancyRecorder : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onMemory(const MemoryEvent& e) override { record(e); }
    void onMemoryEvents(std::span<const MemoryEvent> events) override;
    void finish(SimResult& result) override;

private:
    void record(const MemoryEvent& e);
    struct Step {
        TimePs time;
        std::int64_t bytes;
        std::int64_t partitionBytes;
    };
    /// [lane] frees by the lane that released the tile (nearly in time order; sorted at the end if
    /// not), [lanes + lane] allocations of that lane (in time order, lanes run in order): merged with a
    /// heap, without sorting everything.
    using Lists = std::vector<std::vector<Step>>;
    /// `unsorted[l]`: list l received a step earlier than its last one (checked as steps arrive, so
    /// finish() does not read every list an extra time to find out).
    static void build(Lists& lists, const std::vector<bool>& unsorted, OccupancySeries& out);

    std::size_t m_lanes = 1;
    Lists m_sbuf;
    Lists m_psum;
    std::vector<bool> m_sbufUnsorted;
    std::vector<bool> m_psumUnsorted;
    OccupancySeries m_sbufMeta;
    OccupancySeries m_psumMeta;
};

} // namespace kl::sim
