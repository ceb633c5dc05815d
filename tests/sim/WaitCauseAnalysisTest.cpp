// WaitCauseAnalysis keeps per-instruction tallies only in a window of recent instructions: its blockers must be those
// of a tally per instruction, whatever the distance of a wait (inside the window, on an instruction that left it with
// waiters, or on one that left it without any).
#include "TestIr.h"

#include "listeners/WaitCauseAnalysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kl::sim::test {
namespace {

TEST(WaitCauseAnalysis, BlockersAreThoseOfATallyPerInstruction) {
    constexpr std::uint32_t kInstructions = 300'000; // several windows
    KernelIr ir;
    ir.reserveInstructions(kInstructions);
    for (std::uint32_t i = 0; i < kInstructions; ++i) {
        ir.addInstruction(Instruction{}, {}, {});
    }
    WaitCauseAnalysis analysis;
    analysis.onStart(ir, profile("trn1"));
    std::vector<std::uint64_t> waiters(kInstructions, 0);
    std::vector<TimePs> stall(kInstructions, 0);
    std::uint64_t state = 12345;
    std::vector<InstructionEvent> batch;
    for (std::uint32_t i = 1; i < kInstructions; ++i) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        const auto r = static_cast<std::uint32_t>(state >> 33);
        InstructionEvent e;
        e.index = i;
        e.cause = r % 7 == 0 ? WaitCause::DmaQueue : WaitCause::Dependency;
        // Mostly recent; some far back (left the window, with or without waiters by then), a few on one early
        // instruction, which collects the longest stall.
        const std::uint32_t back = r % 13 == 0 ? 70'000 + r % 150'000 : (r % 101 == 0 ? i : 1 + r % 40);
        e.waitOn = back >= i ? 0 : i - back;
        e.stall = static_cast<TimePs>(r % 1'000'003);
        if (e.cause == WaitCause::Dependency) {
            ++waiters[e.waitOn];
            stall[e.waitOn] += e.stall;
        }
        batch.push_back(e);
        if (batch.size() == 256) {
            analysis.onInstructions(batch);
            batch.clear();
        }
    }
    analysis.onInstructions(batch);
    SimResult result;
    analysis.finish(result);

    std::vector<WaitCauseStats::Blocker> expected;
    for (std::uint32_t i = 0; i < kInstructions; ++i) {
        if (waiters[i] != 0) {
            expected.push_back({i, waiters[i], stall[i]});
        }
    }
    std::ranges::sort(expected, [](const auto& a, const auto& b) {
        return a.stallPs != b.stallPs ? a.stallPs > b.stallPs : a.index < b.index;
    });
    expected.resize(10);
    const auto& got = result.waits.topBlockers;
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_EQ(got[k].index, expected[k].index) << k;
        EXPECT_EQ(got[k].waiters, expected[k].waiters) << k;
        EXPECT_EQ(got[k].stallPs, expected[k].stallPs) << k;
    }
    EXPECT_EQ(got[0].index, 0u); // the early instruction many waited on
}

} // namespace
} // namespace kl::sim::test
