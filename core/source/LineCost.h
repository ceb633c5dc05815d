#pragma once

#include "result/SimResult.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kl::core {

/// Simulated time attributed to one NKI source line.
struct LineCost {
    int line = 0;           ///< 1-based
    sim::TimePs timePs = 0; ///< sum of the lane time of its instructions
    double share = 0;       ///< timePs / LineCostTable::totalPs, 0..1
    std::uint32_t instructions = 0;
};

/// Per-line cost of one run in one source file.
///
/// Attribution rule: every instruction costs the time it occupies its own lane, `endPs - mainStartPs`
/// (for a matmul: the MultiplyMoving part on TensorE; its LoadStationary is not counted, it is part of
/// the same statement and would count the same line twice). That time goes wholly to the instruction's
/// innermost source line (`TimelineData::line`), never split between enclosing loops. Instructions with
/// no line, or whose innermost frame is another file, are `unattributedPs`. Lanes overlap in time, so
/// `totalPs` is busy lane time summed over lanes, not the run's wall-clock length, and shares add up to
/// attributedPs / totalPs (1 when every instruction has a line in this file).
struct LineCostTable {
    std::vector<LineCost> lines;  ///< by line number, only lines with instructions
    sim::TimePs totalPs = 0;      ///< lane time of every instruction of the run
    sim::TimePs attributedPs = 0; ///< lane time attributed to lines of this file
    sim::TimePs unattributedPs = 0;
    std::uint64_t instructions = 0;
    std::uint64_t attributedInstructions = 0;
    double maxShare = 0;
    sim::TimePs dmaPs = 0;         ///< the part of totalPs on DMA queues
    sim::TimePs spanPs = 0;        ///< first start to last end: the run's wall-clock length
    std::uint32_t engineLanes = 0; ///< engine rows with some time (TensorE counts once)
    std::uint32_t dmaQueues = 0;   ///< DMA queues with some time

    [[nodiscard]] const LineCost* find(int line) const;
    /// The lines, most expensive first (ties by line number).
    [[nodiscard]] std::vector<LineCost> byCost() const;
};

/// The table's figures in words for the hot-lines list: the run's length, the busy time summed over the lanes
/// and over how many engines and DMA queues (so a sum far past the run's length explains itself), and the share
/// of that sum on lines of `fileName`. Example:
///   "Run 253.06 us; busy 2.07 ms summed over 3 engines and 16 DMA queues (8.2 busy at once on average);
///   83.0% of it on lines of kernel.py. Share: a line's part of that sum."
[[nodiscard]] std::string laneTimeSummary(const LineCostTable& table, std::string_view fileName);

/// Which entry of `SimResult::files` is `fileName` (matched on the last path component); `kNoIndex`
/// when none is. A run with one file and a caller that does not know the name passes an empty name:
/// that matches the first file.
[[nodiscard]] std::uint32_t findSourceFile(const sim::SimResult& result, std::string_view fileName);

/// Attributes the run's time to the lines of file `fileIndex` (`kNoIndex`: every instruction that has
/// a line, whatever its file).
[[nodiscard]] LineCostTable computeLineCost(const sim::TimelineData& timeline, std::uint32_t fileIndex);

/// Instructions (program-order indices) whose innermost line in `fileIndex` is in [first, last].
[[nodiscard]] std::vector<std::uint32_t> instructionsOnLines(const sim::TimelineData& timeline, std::uint32_t fileIndex,
                                                             int first, int last);

/// One of `steps` heat levels (0 = coolest) for a share relative to the hottest line's share.
[[nodiscard]] int heatStep(double share, double maxShare, int steps);

} // namespace kl::core
