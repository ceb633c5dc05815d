// The Chrome trace of a run: valid JSON, one slice per instruction (plus LoadStationary), named tracks,
// flows that pair up from the instruction waited on to the waiter, counters, same bytes every time.
#include "report/ChromeTrace.h"
#include "result/SyntheticRun.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace kl::core::report {
namespace {

using Json = nlohmann::json;

/// A synthetic run where every third instruction waited on the one before it (a dependency).
std::shared_ptr<sim::SimResult> runWithDependencies() {
    auto run = sim::makeSyntheticRun(60, 1000, 200);
    auto& tl = run->timeline;
    for (std::size_t i = 3; i < tl.size(); i += 3) {
        tl.setCause(i, sim::WaitCause::Dependency);
        tl.setWaitOn(i, static_cast<std::uint32_t>(i - 1));
        tl.setStallPs(i, 250);
    }
    run->psum.timePs = {0, 5000};
    run->psum.bytes = {2048 * 128, 0};
    run->psum.partitionBytes = {2048, 0};
    return run;
}

TEST(ChromeTrace, EventsFlowsAndCounters) {
    const auto run = runWithDependencies();
    const Json trace = Json::parse(ChromeTrace::write(*run));
    ASSERT_TRUE(trace.contains("traceEvents"));
    std::size_t slices = 0;
    std::map<std::int64_t, int> starts, finishes;
    std::set<std::string> counters, threads;
    std::set<std::int64_t> indices;
    for (const Json& e : trace["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "X") {
            ++slices;
            EXPECT_GE(e["dur"].get<double>(), 0.0);
            EXPECT_TRUE(e["args"].contains("line"));
            EXPECT_TRUE(e["args"].contains("wait"));
            indices.insert(e["args"]["index"].get<std::int64_t>());
        } else if (ph == "s") {
            ++starts[e["id"].get<std::int64_t>()];
        } else if (ph == "f") {
            ++finishes[e["id"].get<std::int64_t>()];
            EXPECT_EQ(e["bp"], "e");
        } else if (ph == "C") {
            counters.insert(e["name"].get<std::string>());
        } else if (ph == "M" && e["name"] == "thread_name") {
            threads.insert(e["args"]["name"].get<std::string>());
        }
    }
    EXPECT_EQ(slices, run->timeline.size() + run->timeline.lsCount());
    EXPECT_EQ(indices.size(), run->timeline.size());
    EXPECT_EQ(starts.size(), 19u); // i = 3, 6, ..., 57
    EXPECT_EQ(starts, finishes);
    for (const auto& [id, n] : starts) {
        EXPECT_EQ(n, 1) << id;
    }
    EXPECT_TRUE(counters.contains("SBUF bytes per partition"));
    EXPECT_TRUE(counters.contains("PSUM bytes per partition"));
    EXPECT_TRUE(counters.contains("DMA bandwidth"));
    EXPECT_TRUE(threads.contains("pe.mm"));
    EXPECT_TRUE(threads.contains("dma.q1"));
    EXPECT_EQ(threads.size(), run->laneCount);
}

TEST(ChromeTrace, FlowStartsInsideTheInstructionWaitedOn) {
    const auto run = runWithDependencies();
    const Json trace = Json::parse(ChromeTrace::write(*run));
    const auto& tl = run->timeline;
    for (const Json& e : trace["traceEvents"]) {
        if (e["ph"] != "s") {
            continue;
        }
        const auto waiter = e["id"].get<std::size_t>();
        const std::size_t j = tl.waitOn(waiter);
        const double ts = e["ts"].get<double>() * 1e6; // ps
        EXPECT_GE(ts, static_cast<double>(tl.mainStartPs(j)) - 0.5);
        EXPECT_LT(ts, static_cast<double>(tl.endPs(j)) + 0.5);
        EXPECT_EQ(e["tid"].get<int>(), tl.lane(j));
    }
}

TEST(ChromeTrace, TimesAreExactMicroseconds) {
    const auto run = runWithDependencies();
    const std::string text = ChromeTrace::write(*run);
    // 1200 ps = 0.001200 us: written from integers, no floating-point noise.
    EXPECT_NE(text.find("\"ts\":0.001200"), std::string::npos);
    EXPECT_EQ(text, ChromeTrace::write(*run));
}

TEST(ChromeTrace, OptionsLeaveOutFlowsAndCounters) {
    const auto run = runWithDependencies();
    const std::string text = ChromeTrace::write(*run, {.flows = false, .counters = false});
    EXPECT_EQ(text.find("\"ph\":\"s\""), std::string::npos);
    EXPECT_EQ(text.find("\"ph\":\"C\""), std::string::npos);
    EXPECT_TRUE(Json::accept(text));
}

TEST(ChromeTrace, SpillTransfersAreSlicesOfTheirOwnOnTheirDmaQueue) {
    auto run = sim::makeSyntheticRun(10, 1000, 200);
    const std::uint16_t lane = sim::dmaLane(2);
    run->spills.transfers.push_back({2000, 5000, 4096, 7, 4, lane, sim::DmaKind::Spill, sim::Memory::Sbuf});
    run->spills.transfers.push_back({6000, 9000, 4096, 7, 8, lane, sim::DmaKind::Reload, sim::Memory::Sbuf});
    const Json trace = Json::parse(ChromeTrace::write(*run));
    std::vector<Json> spills;
    for (const Json& e : trace["traceEvents"]) {
        if (e.value("cat", "") == "spill") {
            spills.push_back(e);
        }
    }
    ASSERT_EQ(spills.size(), 2u);
    EXPECT_EQ(spills[0]["name"], "spill");
    EXPECT_EQ(spills[1]["name"], "reload");
    EXPECT_EQ(spills[0]["tid"], lane);
    EXPECT_EQ(spills[0]["pid"], ChromeTrace::kDmaPid);
    EXPECT_EQ(spills[1]["args"]["tile"], 7);
    EXPECT_EQ(spills[1]["args"]["for_index"], 8);
    EXPECT_EQ(spills[1]["args"]["wait"], "spill");
}

} // namespace
} // namespace kl::core::report
