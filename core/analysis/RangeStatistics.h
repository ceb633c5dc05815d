#pragma once

#include "result/SimResult.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace kl::core {

/// What happened in a time window of a run: how busy each engine was, how much DMA moved, and which
/// operations ran. Instructions that straddle an edge count with the part inside the window.
struct RangeStatistics {
    sim::TimePs startPs = 0;
    sim::TimePs endPs = 0;
    std::array<double, sim::kComputeLanes>
        computeActivePct{};     ///< LoadStationary, MultiplyMoving, Vector, Scalar, GpSimd rows
    double tensorActivePct = 0; ///< TensorE busy (either row) as a share of the window
    double dmaActivePct = 0;    ///< some DMA queue active
    double dmaBytes = 0;        ///< bytes of transfers, prorated by the part inside the window
    double dmaBytesPerNs = 0;
    std::uint64_t instructions = 0; ///< instructions overlapping the window
    std::map<std::string, std::uint64_t> countByOperation;
};

/// Walks the run once (plus a sort of the DMA and TensorE intervals inside the window).
[[nodiscard]] RangeStatistics computeRangeStatistics(const sim::SimResult& result, sim::TimePs startPs,
                                                     sim::TimePs endPs);

} // namespace kl::core
