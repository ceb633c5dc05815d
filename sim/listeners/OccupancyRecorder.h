#pragma once

#include "common/Error.h"
#include "engine/SimListener.h"
#include "engine/SimTypes.h"
#include "listeners/TimeOrderedLists.h"
#include "result/SimResult.h"

#include <cstdint>

namespace kl::sim {

/// Turns tile allocate/free events into SBUF and PSUM occupancy step series (bytes and bytes per
/// partition over time), with peaks, capacity and the count of tiles that overflowed. Frees at the
/// same instant as an allocation are applied first, matching how the MemoryUnit placed the tile.
/// Steps are kept per lane (frees and allocations apart) and leave as series points in time order at
/// each watermark.
///
///   sbuf: peak 12.0 MiB (98304 B/partition, 50.0 % of 192 KiB), 96 tiles, 0 overflow
class OccupancyRecorder : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onMemory(const MemoryEvent& e) override { record(e); }
    void onMemoryEvents(std::span<const MemoryEvent> events) override;
    void onWatermark(TimePs time) override;
    void finish(SimResult& result) override;
    /// After finish: an error when some memory's live bytes passed what its 32-bit series holds
    /// (OccupancySeries::kMaxLiveBytes); the run must then be refused, not shown with cut values.
    [[nodiscard]] Expected<void> check() const;

private:
    struct Step {
        TimePs time;
        std::int64_t bytes;
        std::int64_t partitionBytes;
        std::uint32_t core; ///< the core whose memory it is (0 for one core)
    };
    struct TimeOf {
        TimePs operator()(const Step& s) const { return s.time; }
    };
    /// One memory's lists and the series built from them. Lists [0, lanes) hold the frees of each lane,
    /// [lanes, 2 lanes) its allocations: at equal times frees come first (ties go to the lower list), so
    /// the running maximum is the true peak, as the MemoryUnit placed tiles.
    struct Track {
        TimeOrderedLists<Step, TimeOf> steps;
        OccupancySeries series;
        std::int64_t bytes = 0;
        std::int64_t partitionBytes = 0;
        std::vector<std::int64_t> coreBytes; ///< with LNC 2: each core's live bytes (empty for one core)
        TimePs pending = -1;                 ///< time of the point being built
        TimePs tooLargeAt = -1;              ///< the first point whose level the series cannot hold, if any
        std::int64_t tooLargeBytes = 0;
        void apply(const Step& s);
        void closePoint();
        void drainBefore(TimePs time);
    };
    void record(const MemoryEvent& e);

    std::size_t m_lanes = 1;
    std::uint32_t m_perCore = 0; ///< lanes per core with LNC 2 (laneCore), 0 for one core
    Track m_sbuf;
    Track m_psum;
};

} // namespace kl::sim
