// WaitTallies packs each tally into 8 bytes and keeps the ones that do not fit whole: every tally reads back exactly,
// in order, whichever way it was stored.
#include "listeners/WaitTallies.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace kl::sim {
namespace {

TEST(WaitTallies, EveryTallyReadsBackExactlyWhetherPackedOrKeptWhole) {
    std::vector<WaitTally> pushed;
    // Small steps, waiters and stalls (packed), and each field past its packed width (kept whole): a step of 2^16
    // and more, 256 waiters and more, a stall of 2^40 ps and more, and the first tally at a large index.
    pushed.push_back({70'000, 1, 5});
    pushed.push_back({70'001, 255, (TimePs{1} << 40) - 1});
    pushed.push_back({70'002, 256, 1});
    pushed.push_back({70'003, 1, TimePs{1} << 40});
    pushed.push_back({70'003 + 65'535, 2, 3});
    pushed.push_back({70'003 + 65'535 + 65'534, 0, 0});
    pushed.push_back({4'000'000'000u, 0xffffffffu, TimePs{1} << 62});
    std::mt19937 rng(7);
    for (std::uint32_t i = 4'000'000'001u; pushed.size() < 150'000; i += 1 + rng() % 3) {
        pushed.push_back({i, static_cast<std::uint32_t>(1 + rng() % 300), static_cast<TimePs>(rng()) << (rng() % 12)});
    }
    WaitTallies tallies;
    for (const WaitTally& t : pushed) {
        tallies.push(t);
    }
    EXPECT_EQ(tallies.size(), pushed.size());
    std::size_t n = 0;
    for (WaitTallies::Cursor c(tallies); !c.done(); c.next(), ++n) {
        ASSERT_LT(n, pushed.size());
        EXPECT_EQ(c->index, pushed[n].index) << n;
        EXPECT_EQ(c->waiters, pushed[n].waiters) << n;
        EXPECT_EQ(c->stall, pushed[n].stall) << n;
    }
    EXPECT_EQ(n, pushed.size());
    EXPECT_TRUE(WaitTallies::Cursor(WaitTallies{}).done());
}

} // namespace
} // namespace kl::sim
