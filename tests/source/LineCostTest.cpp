#include "source/LineCost.h"

#include "ir/KernelIr.h"
#include "result/SyntheticRun.h"

#include <gtest/gtest.h>

#include <numeric>

using kl::core::computeLineCost;
using kl::sim::TimePs;

TEST(LineCost, SumsEqualTheRunTotals) {
    const auto run = kl::sim::makeSyntheticRun(1000, 1000, 200);
    const auto table = computeLineCost(run->timeline, 0);
    TimePs laneTime = 0;
    for (std::size_t i = 0; i < run->timeline.size(); ++i) {
        laneTime += run->timeline.endPs(i) - run->timeline.mainStartPs(i);
    }
    EXPECT_EQ(table.totalPs, laneTime);
    EXPECT_EQ(table.totalPs, 1000 * 1000);
    const auto timeSum = std::accumulate(table.lines.begin(), table.lines.end(), TimePs{0},
                                         [](TimePs s, const auto& c) { return s + c.timePs; });
    const auto countSum = std::accumulate(table.lines.begin(), table.lines.end(), std::uint64_t{0},
                                          [](std::uint64_t s, const auto& c) { return s + c.instructions; });
    const auto shareSum = std::accumulate(table.lines.begin(), table.lines.end(), 0.0,
                                          [](double s, const auto& c) { return s + c.share; });
    EXPECT_EQ(timeSum, table.attributedPs);
    EXPECT_EQ(table.attributedPs + table.unattributedPs, table.totalPs);
    EXPECT_EQ(countSum, run->summary.instructionCount);
    EXPECT_NEAR(shareSum, 1.0, 1e-12);
    ASSERT_EQ(table.lines.size(), 7U); // synthetic lines 10..16
    EXPECT_EQ(table.lines.front().line, 10);
    EXPECT_EQ(table.lines.back().line, 16);
}

TEST(LineCost, InstructionsElsewhereAreUnattributedButCounted) {
    auto run = kl::sim::makeSyntheticRun(20, 100, 0);
    auto& tl = run->timeline;
    tl.setLoc(0, {tl.file(0), 0}); // no line
    tl.setLoc(1, {7, tl.line(1)}); // another file
    const auto table = computeLineCost(tl, 0);
    EXPECT_EQ(table.instructions, 20U);
    EXPECT_EQ(table.attributedInstructions, 18U);
    EXPECT_EQ(table.unattributedPs, 200);
    EXPECT_EQ(table.attributedPs + table.unattributedPs, table.totalPs);
    const auto all = computeLineCost(tl, kl::sim::kNoIndex);
    EXPECT_EQ(all.attributedInstructions, 19U);
}

TEST(LineCost, MatmulCountsItsLaneTimeOnly) {
    auto run = kl::sim::makeSyntheticRun(1, 1000, 0); // one matmul with a LoadStationary part
    auto& tl = run->timeline;
    tl.setMainStartPs(0, 250);
    const auto table = computeLineCost(tl, 0);
    ASSERT_EQ(table.lines.size(), 1U);
    EXPECT_EQ(table.lines[0].timePs, 750);
    EXPECT_DOUBLE_EQ(table.lines[0].share, 1.0);
}

TEST(LineCost, ByCostAndFindAndInstructionsOnLines) {
    auto run = kl::sim::makeSyntheticRun(14, 100, 0);
    auto& tl = run->timeline;
    tl.setEndPs(3, tl.endPs(3) + 1000); // line 13 becomes the hottest
    const auto table = computeLineCost(tl, 0);
    EXPECT_EQ(table.byCost().front().line, 13);
    ASSERT_NE(table.find(13), nullptr);
    EXPECT_EQ(table.find(13)->instructions, 2U);
    EXPECT_EQ(table.find(42), nullptr);
    const auto on = kl::core::instructionsOnLines(tl, 0, 12, 13);
    EXPECT_EQ(on, (std::vector<std::uint32_t>{2, 3, 9, 10}));
}

TEST(LineCost, HeatStepsSpanTheScale) {
    EXPECT_EQ(kl::core::heatStep(0.0, 0.5, 8), 0);
    EXPECT_EQ(kl::core::heatStep(0.5, 0.5, 8), 7);
    EXPECT_EQ(kl::core::heatStep(0.001, 0.5, 8), 0);
    EXPECT_GT(kl::core::heatStep(0.25, 0.5, 8), kl::core::heatStep(0.05, 0.5, 8));
}

TEST(LineCost, FindSourceFileMatchesTheFileName) {
    kl::sim::SimResult result;
    result.files = {"/tmp/x/helpers.py", "/tmp/x/kernel.py"};
    EXPECT_EQ(kl::core::findSourceFile(result, "kernel.py"), 1U);
    EXPECT_EQ(kl::core::findSourceFile(result, "other.py"), kl::sim::kNoIndex);
}

TEST(LineCost, LaneTimeSummaryExplainsASumPastTheRunsLength) {
    // One engine instruction and four DMA transfers on four queues, all at once: 5 us of lane time in a 1 us run.
    kl::sim::TimelineData tl;
    const auto add = [&](std::uint16_t lane, int line) {
        kl::sim::TimelineData::Record r;
        r.irId = static_cast<std::uint32_t>(tl.size());
        r.mainStartPs = 0;
        r.endPs = 1'000'000;
        r.lane = lane;
        r.op = lane >= kl::sim::kComputeLanes ? kl::sim::Op::DmaCopy : kl::sim::Op::TensorTensor;
        r.loc = {0, static_cast<std::uint32_t>(line)};
        tl.append(r);
    };
    add(static_cast<std::uint16_t>(kl::sim::Lane::Vector), 3);
    for (std::uint32_t q = 0; q < 4; ++q) {
        add(kl::sim::dmaLane(q), 5);
    }
    const auto table = computeLineCost(tl, 0);
    EXPECT_EQ(table.totalPs, 5'000'000);
    EXPECT_EQ(table.spanPs, 1'000'000);
    EXPECT_EQ(table.dmaPs, 4'000'000);
    EXPECT_EQ(table.engineLanes, 1U);
    EXPECT_EQ(table.dmaQueues, 4U);
    double shares = 0;
    for (const auto& line : table.lines) {
        shares += line.share;
    }
    EXPECT_LE(shares, 1.0 + 1e-12); // a share of the summed busy time: never past 100% together
    const std::string text = kl::core::laneTimeSummary(table, "kernel.py");
    EXPECT_NE(text.find("Run 1.00 us"), std::string::npos) << text;
    EXPECT_NE(text.find("busy 5.00 us summed over 1 engine and 4 DMA queues"), std::string::npos) << text;
    EXPECT_NE(text.find("5.0 busy at once"), std::string::npos) << text;
    EXPECT_NE(text.find("100.0% of it on lines of kernel.py"), std::string::npos) << text;
}
