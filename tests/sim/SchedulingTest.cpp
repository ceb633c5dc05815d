#include "TestIr.h"

#include "engine/CostModel.h"
#include "engine/Simulator.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kl::sim::test {

namespace {

std::shared_ptr<const SimResult> simulate(const TestIr& t, const std::string& hw = "trn1") {
    const KernelIr ir = t.load();
    auto r = Simulator::run(ir, profile(hw));
    EXPECT_TRUE(r.has_value());
    return r ? *r : nullptr;
}

constexpr double kTrn1BytesPerNs = 272.0;

} // namespace

TEST(Scheduling, ConsumerWaitsOnProducerDma) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 2048});
    const int s = t.buffer("s", "sbuf", {128, 2048});
    const int o = t.buffer("o", "sbuf", {128, 2048});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)});
    t.add("tensor_copy", "vector", {t.whole(o)}, {t.whole(s)});
    const auto r = simulate(t);
    const TimelineData& tl = r->timeline;
    EXPECT_EQ(tl.cause(0), WaitCause::None);
    EXPECT_EQ(tl.startPs(0), 0);
    // 4 KiB per partition: full efficiency, all 16 engines: latency + bytes / 272 B/ns.
    const double expectNs = 1300.0 + 128.0 * 2048 * 2 / kTrn1BytesPerNs;
    EXPECT_NEAR(static_cast<double>(tl.endPs(0)) / 1000.0, expectNs, 1.0);
    EXPECT_EQ(tl.cause(1), WaitCause::Dependency);
    EXPECT_EQ(tl.waitOn(1), 0u);
    EXPECT_EQ(tl.startPs(1), tl.endPs(0));
    EXPECT_EQ(tl.stallPs(1), tl.endPs(0));
    // Dependent start pays the semaphore overhead on top of N + access overhead.
    const double cycles = 2048 + 60 + 100;
    EXPECT_EQ(tl.endPs(1) - tl.startPs(1), static_cast<TimePs>(std::ceil(cycles * 1000.0 / 1.12)));
}

TEST(Scheduling, IndependentInstructionsWaitOnTheirEngineOnly) {
    TestIr t;
    const int x = t.buffer("x", "sbuf", {128, 512});
    const int y = t.buffer("y", "sbuf", {128, 512});
    const int z = t.buffer("z", "sbuf", {128, 512});
    t.add("memset", "vector", {t.whole(x)}, {});
    t.add("memset", "vector", {t.whole(y)}, {});
    t.add("memset", "scalar", {t.whole(z)}, {});
    const auto r = simulate(t);
    const TimelineData& tl = r->timeline;
    EXPECT_EQ(tl.cause(1), WaitCause::Engine);
    EXPECT_EQ(tl.startPs(1), tl.endPs(0));
    EXPECT_EQ(tl.cause(2), WaitCause::None); // another engine: runs concurrently
    EXPECT_EQ(tl.startPs(2), 0);
}

TEST(Scheduling, WriteAfterReadAndDisjointRegions) {
    TestIr t;
    const int x = t.buffer("x", "sbuf", {128, 1024});
    const int y = t.buffer("y", "sbuf", {128, 1024});
    t.add("memset", "vector", {t.whole(x)}, {});                 // 0 writes x
    t.add("tensor_copy", "scalar", {t.whole(y)}, {t.whole(x)});  // 1 reads x (RAW on 0)
    t.add("memset", "gpsimd", {t.part(x, 0, 128, 0, 512)}, {});  // 2 writes x[:, :512] (WAR on 1)
    t.add("memset", "vector", {t.part(y, 64, 64, 0, 1024)}, {}); // 3 WAW on y rows 64.. (on 1)
    t.add("memset", "vector", {t.part(x, 0, 64, 512, 512)}, {}); // 4 x[:64, 512:]: after 1 (WAR)
    const auto r = simulate(t);
    const TimelineData& tl = r->timeline;
    EXPECT_EQ(tl.waitOn(1), 0u);
    EXPECT_EQ(tl.cause(2), WaitCause::Dependency);
    EXPECT_EQ(tl.waitOn(2), 1u);
    EXPECT_GE(tl.startPs(2), tl.endPs(1));
    EXPECT_EQ(tl.waitOn(3), 1u);
    EXPECT_GE(tl.startPs(3), tl.endPs(1));
    EXPECT_GE(tl.startPs(4), tl.endPs(1));
}

TEST(Scheduling, MatmulSplitsIntoLoadStationaryAndMultiplyMoving) {
    TestIr t;
    const int st = t.buffer("st", "sbuf", {128, 128});
    const int mv = t.buffer("mv", "sbuf", {128, 512});
    const int ps = t.buffer("ps", "psum", {128, 512}, "float32");
    t.add("memset", "vector", {t.whole(st)}, {});
    t.add("memset", "scalar", {t.whole(mv)}, {});
    for (int k = 0; k < 4; ++k) {
        t.add("nc_matmul", "tensor", {t.whole(ps)}, {t.whole(st), t.whole(mv)}, {{"accumulate", k > 0}});
    }
    const auto r = simulate(t);
    const TimelineData& tl = r->timeline;
    ASSERT_EQ(tl.lsCount(), 4u);
    for (std::size_t k = 0; k < 4; ++k) {
        const std::size_t i = 2 + k;
        EXPECT_EQ(tl.lane(i), static_cast<std::uint16_t>(Lane::MultiplyMoving));
        EXPECT_EQ(tl.lsIndex(k), i);
        EXPECT_GE(tl.mainStartPs(i), tl.lsEndPs(k));
        if (k > 0) {
            // back-to-back accumulation: next MM starts when the previous ends; its LS overlapped that MM.
            EXPECT_EQ(tl.mainStartPs(i), tl.endPs(i - 1));
            EXPECT_LT(tl.lsStartPs(k), tl.endPs(i - 1));
            const double cycles = 512 + (tl.cause(i) == WaitCause::Dependency ? 100 : 0);
            EXPECT_EQ(tl.endPs(i) - tl.mainStartPs(i), static_cast<TimePs>(std::ceil(cycles * 1000.0 / 2.8)));
        }
    }
    EXPECT_EQ(tl.cause(2), WaitCause::Dependency); // first matmul waits on the memsets
    EXPECT_GT(r->summary.mfuPct, 0.0);
}

TEST(Scheduling, DmaQueuesRoundRobinAndInOrder) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 64});
    const HardwareProfile hw = profile("trn1");
    const int queues = static_cast<int>(hw.dma.queues);
    for (int i = 0; i < queues + 1; ++i) {
        const int s = t.buffer("s", "sbuf", {128, 64});
        t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)});
    }
    const auto r = simulate(t);
    const TimelineData& tl = r->timeline;
    for (int i = 0; i < queues; ++i) {
        EXPECT_EQ(tl.lane(static_cast<std::size_t>(i)), dmaLane(static_cast<std::uint32_t>(i)));
        EXPECT_EQ(tl.startPs(static_cast<std::size_t>(i)), 0);
    }
    const auto last = static_cast<std::size_t>(queues);
    EXPECT_EQ(tl.lane(last), dmaLane(0));
    EXPECT_EQ(tl.cause(last), WaitCause::DmaQueue);
    EXPECT_EQ(tl.startPs(last), tl.endPs(0));
}

} // namespace kl::sim::test
