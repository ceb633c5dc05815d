#include "result/SyntheticRun.h"

#include "analysis/ActivityIntervals.h"
#include "analysis/RangeStatistics.h"

#include <gtest/gtest.h>

namespace {

using kl::sim::TimePs;

// Independent brute-force reference: sum of clipped durations on one lane.
TimePs busyOn(const kl::sim::SimResult& r, std::uint16_t lane, TimePs t0, TimePs t1) {
    TimePs total = 0;
    for (std::size_t i = 0; i < r.timeline.size(); ++i) {
        if (r.timeline.lane(i) == lane) {
            total += std::max<TimePs>(0, std::min(t1, r.timeline.endPs(i)) - std::max(t0, r.timeline.mainStartPs(i)));
        }
    }
    return total;
}

TEST(RangeStatistics, EqualsTheValuesComputedFromTheRun) {
    const auto run = kl::sim::makeSyntheticRun(500);
    const TimePs t0 = 12'345;
    const TimePs t1 = 61'000;
    const auto stats = kl::core::computeRangeStatistics(*run, t0, t1);
    const double window = static_cast<double>(t1 - t0);
    for (std::uint16_t lane : {1, 2, 3}) {
        EXPECT_DOUBLE_EQ(stats.computeActivePct[lane], 100.0 * static_cast<double>(busyOn(*run, lane, t0, t1)) / window)
            << "lane " << lane;
    }
    // One byte per picosecond while dma.q0 runs.
    EXPECT_NEAR(stats.dmaBytes, static_cast<double>(busyOn(*run, 5, t0, t1)), 1e-6);
    std::uint64_t overlapping = 0;
    for (std::size_t i = 0; i < run->timeline.size(); ++i) {
        overlapping += run->timeline.mainStartPs(i) < t1 && run->timeline.endPs(i) > t0;
    }
    EXPECT_EQ(stats.instructions, overlapping);
    std::uint64_t byOp = 0;
    for (const auto& [op, n] : stats.countByOperation) {
        byOp += n;
    }
    EXPECT_EQ(byOp, overlapping);
    EXPECT_GT(stats.countByOperation.at("nc_matmul"), 0u);
}

TEST(RangeStatistics, WholeRunMatchesLaneTotals) {
    const auto run = kl::sim::makeSyntheticRun(100);
    const auto stats = kl::core::computeRangeStatistics(*run, 0, run->summary.totalPs);
    const double total = static_cast<double>(run->summary.totalPs);
    EXPECT_DOUBLE_EQ(stats.computeActivePct[2],
                     100.0 * static_cast<double>(busyOn(*run, 2, 0, run->summary.totalPs)) / total);
    EXPECT_EQ(stats.instructions, 100u);
}

TEST(RangeStatistics, EmptyWindowIsAllZero) {
    const auto run = kl::sim::makeSyntheticRun(10);
    const auto stats = kl::core::computeRangeStatistics(*run, 500, 500);
    EXPECT_EQ(stats.instructions, 0u);
    EXPECT_EQ(stats.dmaBytes, 0.0);
}

TEST(ActivityIntervals, ExposedDmaIsDmaOutsideCompute) {
    const kl::core::Intervals dma = {{0, 100}, {200, 300}};
    const kl::core::Intervals compute = {{50, 250}};
    const auto exposed = kl::core::subtract(dma, compute);
    ASSERT_EQ(exposed.size(), 2u);
    EXPECT_EQ(exposed[0], std::make_pair(TimePs{0}, TimePs{50}));
    EXPECT_EQ(exposed[1], std::make_pair(TimePs{250}, TimePs{300}));
    EXPECT_EQ(kl::core::totalLength(exposed), 100);
}

} // namespace
