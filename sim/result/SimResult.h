#pragma once

#include "engine/SimTypes.h"
#include "ir/IrTypes.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kl::sim {

/// Per-instruction timeline as parallel arrays indexed by program order (Tracy style: one array per
/// field, no pointers), so a view can binary-search `startPs` of one lane or draw straight from them.
/// About 34 bytes per instruction; matmuls add a LoadStationary record in the `ls*` arrays.
struct TimelineData {
    std::vector<std::uint32_t> irId; ///< the IR `id`
    std::vector<TimePs> startPs;     ///< for a matmul: start of its LoadStationary
    std::vector<TimePs> endPs;       ///< for a matmul: end of its MultiplyMoving
    std::vector<TimePs> mainStartPs; ///< start on `lane` (for a matmul: the MultiplyMoving start)
    std::vector<std::uint16_t> lane; ///< see laneName()
    std::vector<Op> op;
    std::vector<std::uint32_t> file; ///< innermost source frame: index into SimResult::files, kNoIndex if none
    std::vector<std::uint32_t> line; ///< 1-based line, 0 if none
    std::vector<WaitCause> cause;
    std::vector<std::uint32_t> waitOn; ///< program-order index waited on (cause == Dependency), else kNoIndex
    std::vector<TimePs> stallPs;
    /// LoadStationary rows of matmuls: instruction index and its interval, in program order.
    std::vector<std::uint32_t> lsIndex;
    std::vector<TimePs> lsStartPs;
    std::vector<TimePs> lsEndPs;

    [[nodiscard]] std::size_t size() const { return startPs.size(); }
    [[nodiscard]] std::size_t memoryBytes() const;
};

/// Occupancy of one on-chip memory as a step function: the value holds from `timePs[i]` to `timePs[i+1]`.
struct OccupancySeries {
    std::vector<TimePs> timePs;
    std::vector<std::int64_t> bytes;          ///< whole-tile bytes live
    std::vector<std::int64_t> partitionBytes; ///< bytes reserved in each partition
    std::int64_t capacityBytes = 0;
    std::int64_t capacityPartitionBytes = 0;
    std::int64_t peakBytes = 0;
    std::int64_t peakPartitionBytes = 0;
    std::uint32_t tiles = 0;
    std::uint32_t overflowCount = 0; ///< tiles that did not fit even after waiting (working set too big)
    [[nodiscard]] double peakPct() const {
        return capacityPartitionBytes > 0
                   ? 100.0 * static_cast<double>(peakPartitionBytes) / static_cast<double>(capacityPartitionBytes)
                   : 0.0;
    }
};

/// DMA activity as a step function over time.
struct DmaSeries {
    std::vector<TimePs> timePs;
    std::vector<std::int64_t> bytesInFlight; ///< bytes of transfers queued-and-started but not finished
    std::vector<double> bytesPerNs;          ///< aggregate data rate (each transfer at its average rate)
    std::vector<std::uint32_t> activeTransfers;
    std::uint64_t transfers = 0;
    std::int64_t bytes = 0;
    std::int64_t hbmBytes = 0;
    std::uint32_t queues = 0;
};

/// Compute/DMA overlap: time with any compute engine busy, any transfer active, both, and DMA alone.
struct OverlapStats {
    TimePs computeActivePs = 0;
    TimePs dmaActivePs = 0;
    TimePs overlapPs = 0;
    TimePs dmaExposedPs = 0; ///< DMA active while every compute engine idles
};

struct EngineStats {
    std::uint64_t instructions = 0;
    TimePs busyPs = 0;
    double activePct = 0;
};

struct WaitCauseStats {
    std::array<std::uint64_t, static_cast<std::size_t>(WaitCause::Count)> count{};
    std::array<TimePs, static_cast<std::size_t>(WaitCause::Count)> stallPs{};
    struct Blocker {
        std::uint32_t index = 0; ///< program-order index of the instruction others waited on
        std::uint64_t waiters = 0;
        TimePs stallPs = 0;
    };
    std::vector<Blocker> topBlockers; ///< by stall time, longest first (at most 10)
};

/// Engines in the summary, in this order.
enum class SummaryEngine : std::uint8_t { Tensor, Vector, Scalar, GpSimd, Count };

struct SimSummary {
    TimePs totalPs = 0;
    std::uint64_t instructionCount = 0;
    std::array<EngineStats, static_cast<std::size_t>(SummaryEngine::Count)> engines{};
    double dmaActivePct = 0;
    TimePs dmaExposedPs = 0;
    std::int64_t dmaBytes = 0;
    double flops = 0;
    double mfuPct = 0;
    double hbmBandwidthUtilizationPct = 0;
    std::int64_t sbufPeakBytes = 0;
    std::int64_t psumPeakBytes = 0;
};

/// Everything one simulation produced. Built once by the Simulator from its listeners, then shared
/// read-only as std::shared_ptr<const SimResult> (the GUI reads it on another thread).
struct SimResult {
    std::string kernelName;
    std::string hardwareName;
    std::vector<std::string> files;
    std::vector<std::string> diagnostics;
    std::uint32_t laneCount = 0; ///< kComputeLanes + DMA queues
    SimSummary summary;
    TimelineData timeline;
    OccupancySeries sbuf;
    OccupancySeries psum;
    DmaSeries dma;
    OverlapStats overlap;
    WaitCauseStats waits;
};

} // namespace kl::sim
