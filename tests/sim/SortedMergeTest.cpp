#include "listeners/SortedMerge.h"
#include "listeners/TimeOrderedLists.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

namespace kl::sim {

namespace {

/// A value and where it came from, to check the order of ties.
struct Item {
    TimePs time = 0;
    std::size_t list = 0;
    std::size_t position = 0;
    bool operator==(const Item&) const = default;
};

struct TimeOf {
    TimePs operator()(const Item& item) const { return item.time; }
};

/// Random sorted lists with many equal times across and within lists.
std::vector<std::vector<Item>> randomLists(std::uint32_t seed, std::size_t lists, std::size_t length) {
    std::mt19937 rng(seed);
    std::vector<std::vector<Item>> out(lists);
    for (std::size_t l = 0; l < lists; ++l) {
        TimePs t = 0;
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, length)(rng);
        for (std::size_t k = 0; k < n; ++k) {
            t += std::uniform_int_distribution<TimePs>(0, 3)(rng);
            out[l].push_back({t, l, k});
        }
    }
    return out;
}

/// The order mergeSorted promises: by time, ties by list, then by position in the list.
std::vector<Item> expectedOrder(const std::vector<std::vector<Item>>& lists) {
    std::vector<Item> all;
    for (const auto& list : lists) {
        all.insert(all.end(), list.begin(), list.end());
    }
    std::stable_sort(all.begin(), all.end(), [](const Item& a, const Item& b) { return a.time < b.time; });
    return all;
}

} // namespace

TEST(SortedMerge, VisitsByTimeWithTiesToTheLowerList) {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        const auto lists = randomLists(seed, 1 + seed % 19, 60);
        std::vector<Item> visited;
        mergeSorted(lists, TimeOf{}, [&](const Item& item) { visited.push_back(item); });
        EXPECT_EQ(visited, expectedOrder(lists)) << "seed " << seed;
    }
}

TEST(SortedMerge, EmptyAndSingleLists) {
    std::vector<Item> visited;
    const auto visit = [&](const Item& item) { visited.push_back(item); };
    mergeSorted(std::vector<std::vector<Item>>{}, TimeOf{}, visit);
    mergeSorted(std::vector<std::vector<Item>>{{}, {}}, TimeOf{}, visit);
    EXPECT_TRUE(visited.empty());
    const std::vector<std::vector<Item>> one{{}, {{5, 1, 0}, {5, 1, 1}, {9, 1, 2}}, {}};
    mergeSorted(one, TimeOf{}, visit);
    EXPECT_EQ(visited, expectedOrder(one));
}

TEST(TimeOrderedLists, DrainingInSlicesEqualsOneMerge) {
    // Steps pushed in program-like order: each list nearly sorted (some out of step), drained at rising
    // limits that no later step undercuts, as the Pipeline's watermark guarantees.
    std::mt19937 rng(7);
    constexpr std::size_t kLists = 6;
    TimeOrderedLists<Item, TimeOf> lists;
    lists.reset(kLists);
    std::vector<std::vector<Item>> pushed(kLists);
    std::vector<Item> drained;
    const auto visit = [&](const Item& item) { drained.push_back(item); };
    TimePs floor = 0; // no later step is earlier
    for (int round = 0; round < 200; ++round) {
        for (int k = 0; k < 20; ++k) {
            const std::size_t l = std::uniform_int_distribution<std::size_t>(0, kLists - 1)(rng);
            const TimePs t = floor + std::uniform_int_distribution<TimePs>(0, 40)(rng);
            const Item item{t, l, pushed[l].size()};
            pushed[l].push_back(item);
            lists.push(l, item);
        }
        floor += std::uniform_int_distribution<TimePs>(0, 15)(rng);
        lists.drainBefore(floor, visit);
        ASSERT_TRUE(std::all_of(drained.begin(), drained.end(), [&](const Item& i) { return i.time < floor; }));
    }
    lists.drainAll(visit);
    // The same steps with each list sorted stably (what drainBefore does to a list that came out of step).
    for (auto& list : pushed) {
        std::stable_sort(list.begin(), list.end(), [](const Item& a, const Item& b) { return a.time < b.time; });
    }
    EXPECT_EQ(drained, expectedOrder(pushed));
}

TEST(TimeOrderedLists, LastIsTheNewestUndrainedStep) {
    TimeOrderedLists<Item, TimeOf> lists;
    lists.reset(2);
    EXPECT_EQ(lists.last(0), nullptr);
    lists.push(0, {3, 0, 0});
    lists.push(0, {8, 0, 1});
    ASSERT_NE(lists.last(0), nullptr);
    EXPECT_EQ(lists.last(0)->time, 8);
    lists.last(0)->time = 9; // folding into the last step is allowed while it is not drained
    std::vector<TimePs> times;
    lists.drainBefore(5, [&](const Item& item) { times.push_back(item.time); });
    EXPECT_EQ(times, std::vector<TimePs>{3});
    lists.drainBefore(10, [&](const Item& item) { times.push_back(item.time); });
    EXPECT_EQ(times, (std::vector<TimePs>{3, 9}));
    EXPECT_EQ(lists.last(0), nullptr);
}

} // namespace kl::sim
