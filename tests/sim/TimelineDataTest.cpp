// TimelineData packs its per-instruction fields; every accessor must still return exactly what was
// appended, including values that do not fit the narrow fields (overflow tables).
#include "result/SimResult.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace kl::sim {
namespace {

std::vector<TimelineData::Record> randomRecords(std::size_t count, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    std::vector<TimelineData::Record> out;
    for (std::size_t i = 0; i < count; ++i) {
        TimelineData::Record r;
        r.irId = pick(0, 50) == 0 ? static_cast<std::uint32_t>(pick(0, 1'000'000)) : static_cast<std::uint32_t>(i);
        // Mostly near each other, sometimes far apart (offsets beyond +-2^31 ps from the block base).
        r.mainStartPs = pick(0, 10) == 0 ? pick(0, std::int64_t{1} << 45) : pick(1'000'000, 1'100'000);
        const std::int64_t duration =
            pick(0, 20) == 0 ? pick(std::int64_t{1} << 32, std::int64_t{1} << 40) : pick(0, 1'000'000);
        r.endPs = r.mainStartPs + duration;
        r.lane =
            pick(0, 100) == 0 ? static_cast<std::uint16_t>(pick(255, 600)) : static_cast<std::uint16_t>(pick(0, 20));
        r.op = static_cast<Op>(pick(0, 5));
        r.loc = pick(0, 30) == 0
                    ? SourceLoc{}
                    : SourceLoc{static_cast<std::uint32_t>(pick(0, 2)), static_cast<std::uint32_t>(pick(1, 400))};
        r.cause = static_cast<WaitCause>(pick(0, static_cast<std::int64_t>(WaitCause::Count) - 1));
        if (i > 0 && pick(0, 2) == 0) {
            r.waitOn = pick(0, 10) == 0
                           ? 0u
                           : static_cast<std::uint32_t>(
                                 i - static_cast<std::size_t>(
                                         pick(1, std::min<std::int64_t>(static_cast<std::int64_t>(i), 70'000))));
        }
        r.stallPs = pick(0, 20) == 0 ? pick(std::int64_t{1} << 40, std::int64_t{1} << 50) : pick(0, 5'000'000'000);
        if (pick(0, 3) == 0) {
            r.lsStartPs =
                r.mainStartPs - (pick(0, 20) == 0 ? pick(std::int64_t{1} << 32, std::int64_t{1} << 36) : pick(0, 5000));
            r.lsEndPs =
                r.lsStartPs + (pick(0, 20) == 0 ? pick(std::int64_t{1} << 32, std::int64_t{1} << 36) : pick(0, 5000));
        }
        out.push_back(r);
    }
    return out;
}

void expectSame(const TimelineData& t, const std::vector<TimelineData::Record>& records) {
    ASSERT_EQ(t.size(), records.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        ASSERT_EQ(t.irId(i), r.irId) << i;
        ASSERT_EQ(t.mainStartPs(i), r.mainStartPs) << i;
        ASSERT_EQ(t.endPs(i), r.endPs) << i;
        ASSERT_EQ(t.durationPs(i), r.endPs - r.mainStartPs) << i;
        ASSERT_EQ(t.lane(i), r.lane) << i;
        ASSERT_EQ(t.op(i), r.op) << i;
        ASSERT_EQ(t.file(i), r.loc.file) << i;
        ASSERT_EQ(t.line(i), r.loc.line) << i;
        ASSERT_EQ(t.cause(i), r.cause) << i;
        ASSERT_EQ(t.waitOn(i), r.waitOn) << i;
        ASSERT_EQ(t.stallPs(i), r.stallPs) << i;
        ASSERT_EQ(t.hasLoadStationary(i), r.lsStartPs >= 0) << i;
        if (r.lsStartPs >= 0) {
            ASSERT_LT(k, t.lsCount());
            ASSERT_EQ(t.lsIndex(k), i);
            ASSERT_EQ(t.lsOf(i), k);
            ASSERT_EQ(t.lsStartPs(k), r.lsStartPs) << i;
            ASSERT_EQ(t.lsEndPs(k), r.lsEndPs) << i;
            ASSERT_EQ(t.startPs(i), r.lsStartPs) << i;
            ++k;
        } else {
            ASSERT_EQ(t.startPs(i), r.mainStartPs) << i;
        }
    }
    EXPECT_EQ(k, t.lsCount());
}

TEST(TimelineData, PackedFieldsReturnExactlyWhatWasAppended) {
    const auto records = randomRecords(20'000, 7);
    TimelineData t;
    t.reserve(records.size(), records.size());
    for (const auto& r : records) {
        t.append(r);
    }
    expectSame(t, records); // before freeze
    t.freeze();
    expectSame(t, records);
}

TEST(TimelineData, EditsKeepTheOtherFields) {
    auto records = randomRecords(3'000, 11);
    TimelineData t;
    for (const auto& r : records) {
        t.append(r);
    }
    t.freeze();
    std::mt19937 rng(3);
    for (int n = 0; n < 2'000; ++n) {
        const std::size_t i = rng() % records.size();
        auto& r = records[i];
        switch (rng() % 6) {
        case 0: {
            const TimePs start = (rng() % 2 == 0) ? r.mainStartPs + 17 : static_cast<TimePs>(rng()) << 12;
            r.mainStartPs = start; // end and the LoadStationary row stay
            t.setMainStartPs(i, start);
            break;
        }
        case 1:
            r.endPs = r.mainStartPs + ((rng() % 2 == 0) ? 5 : (TimePs{1} << 33));
            t.setEndPs(i, r.endPs);
            break;
        case 2:
            r.waitOn = (rng() % 3 == 0 || i == 0) ? kNoIndex : static_cast<std::uint32_t>(rng() % i);
            t.setWaitOn(i, r.waitOn);
            break;
        case 3:
            r.stallPs = (rng() % 2 == 0) ? 250 : (TimePs{1} << 42);
            t.setStallPs(i, r.stallPs);
            break;
        case 4:
            r.cause = WaitCause::Dependency;
            t.setCause(i, r.cause);
            break;
        default:
            r.loc = {7, static_cast<std::uint32_t>(rng() % 1000)};
            t.setLoc(i, r.loc);
            break;
        }
    }
    expectSame(t, records);
}

TEST(TimelineData, ManyDistinctLocationsAndIdentityIds) {
    TimelineData t;
    const std::size_t n = 70'000 + 5; // more distinct lines than the 16-bit location table holds
    for (std::size_t i = 0; i < n; ++i) {
        TimelineData::Record r;
        r.irId = static_cast<std::uint32_t>(i);
        r.mainStartPs = static_cast<TimePs>(i) * 10;
        r.endPs = r.mainStartPs + 5;
        r.loc = {0, static_cast<std::uint32_t>(i + 1)};
        t.append(r);
    }
    t.freeze();
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(t.line(i), i + 1);
        ASSERT_EQ(t.irId(i), i);
    }
}

TEST(TimelineData, SmallPerInstructionFootprint) {
    TimelineData t;
    const std::size_t n = 64'000;
    t.reserve(n, n / 5);
    for (std::size_t i = 0; i < n; ++i) {
        TimelineData::Record r;
        r.irId = static_cast<std::uint32_t>(i);
        r.mainStartPs = static_cast<TimePs>(i) * 1000;
        r.endPs = r.mainStartPs + 900;
        r.loc = {0, static_cast<std::uint32_t>(10 + i % 7)};
        r.waitOn = i > 0 ? static_cast<std::uint32_t>(i - 1) : kNoIndex;
        if (i % 5 == 0) {
            r.lsStartPs = r.mainStartPs - 300;
            r.lsEndPs = r.mainStartPs - 100;
        }
        t.append(r);
    }
    t.freeze();
    const double perInstruction = static_cast<double>(t.memoryBytes()) / static_cast<double>(n);
    EXPECT_LE(perInstruction, TimelineData::kBytesPerInstruction + 8.0 / TimelineData::kBlock +
                                  TimelineData::kBytesPerLoadStationary / 5.0 + 0.1);
}

} // namespace
} // namespace kl::sim
