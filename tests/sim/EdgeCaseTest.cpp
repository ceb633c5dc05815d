#include "TestIr.h"

#include "engine/Simulator.h"
#include "output/ResultJson.h"
#include "output/TextReport.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

TEST(EdgeCases, EmptyKernelGivesAnEmptyResult) {
    TestIr t;
    const KernelIr ir = t.load();
    auto r = Simulator::run(ir, profile("trn1"));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ((*r)->summary.totalPs, 0);
    EXPECT_EQ((*r)->summary.instructionCount, 0u);
    EXPECT_EQ((*r)->summary.mfuPct, 0.0);
    EXPECT_NE(TextReport::timeline(**r, 10).find("no instructions"), std::string::npos);
    EXPECT_FALSE(ResultJson::write(**r).empty());
}

TEST(EdgeCases, OddInstructionsStillSchedule) {
    TestIr t;
    const int s = t.buffer("s", "sbuf", {128, 64});
    const int h = t.buffer("h", "hbm", {128, 64});
    const int p = t.buffer("p", "psum", {128, 64}, "float32");
    t.add("iota", "gpsimd", {t.whole(s)}, {});                    // no sources
    t.add("nc_warp_drive", "scalar", {t.whole(s)}, {t.whole(s)}); // unknown op
    t.add("dma_copy", "dma", {t.whole(h)}, {t.whole(s)});         // store
    t.add("dma_copy", "dma", {t.whole(p)}, {t.whole(h)});         // HBM -> PSUM
    t.add("tensor_copy", "vector", {t.whole(s)}, {t.whole(p)});
    t.add("memset", "vector", {}, {}); // nothing at all
    const KernelIr ir = t.load();
    auto r = Simulator::run(ir, profile("trn2"));
    ASSERT_TRUE(r.has_value());
    const TimelineData& tl = (*r)->timeline;
    ASSERT_EQ(tl.size(), 6u);
    for (std::size_t i = 0; i < tl.size(); ++i) {
        EXPECT_GT(tl.endPs(i), tl.startPs(i)) << i;
    }
    EXPECT_EQ(tl.waitOn(1), 0u);
    EXPECT_EQ(tl.waitOn(2), 1u);
    EXPECT_EQ(tl.waitOn(3), 2u); // RAW: the load reads what the store wrote
    EXPECT_EQ((*r)->psum.peakPartitionBytes, 2048);
    EXPECT_EQ((*r)->sbuf.partitionBytes.back(), 0);
}

} // namespace kl::sim::test
