#include "TestIr.h"

#include "compare/RunComparison.h"
#include "engine/Simulator.h"

#include <gtest/gtest.h>

namespace kl::core {

namespace {

using sim::test::TestIr;

/// `loads` loads of 128 x `free` bf16, each followed by a VectorE copy and a store.
sim::KernelIr streamIr(int loads, std::int64_t free) {
    TestIr t;
    const int in = t.buffer("in", "hbm", {128, free});
    const int out = t.buffer("out", "hbm", {128, free});
    for (int i = 0; i < loads; ++i) {
        const int s = t.buffer("s", "sbuf", {128, free});
        const int d = t.buffer("d", "sbuf", {128, free});
        t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(in)});
        t.add("tensor_copy", "vector", {t.whole(d)}, {t.whole(s)});
        t.add("dma_copy", "dma", {t.whole(out)}, {t.whole(d)});
    }
    return t.load();
}

std::shared_ptr<const sim::SimResult> run(const sim::KernelIr& ir, const std::string& hw) {
    auto result = sim::Simulator::run(ir, sim::test::profile(hw));
    EXPECT_TRUE(result.has_value());
    return *result;
}

} // namespace

TEST(RunComparison, DeltasEqualTheRunsOwnSummaries) {
    const auto irA = streamIr(2, 4096);
    const auto irB = streamIr(4, 2048);
    const auto a = run(irA, "trn1");
    const auto b = run(irB, "trn2");
    const RunComparison c(*a, *b, "A", "B");
    const auto& sa = a->summary;
    const auto& sb = b->summary;
    const auto* total = c.find("total_us");
    ASSERT_NE(total, nullptr);
    EXPECT_DOUBLE_EQ(total->a, static_cast<double>(sa.totalPs) / 1e6);
    EXPECT_DOUBLE_EQ(total->b, static_cast<double>(sb.totalPs) / 1e6);
    EXPECT_NEAR(total->delta(), static_cast<double>(sb.totalPs - sa.totalPs) / 1e6, 1e-9);
    EXPECT_NEAR(*total->deltaPct(),
                100.0 * (static_cast<double>(sb.totalPs) - static_cast<double>(sa.totalPs)) /
                    static_cast<double>(sa.totalPs),
                1e-9);
    const auto* vector = c.find("active_pct.vector");
    ASSERT_NE(vector, nullptr);
    EXPECT_DOUBLE_EQ(vector->a, sa.engine(sim::Engine::Vector).activePct);
    EXPECT_DOUBLE_EQ(vector->b, sb.engine(sim::Engine::Vector).activePct);
    EXPECT_DOUBLE_EQ(c.find("dma_bytes_mib")->a * 1024 * 1024, static_cast<double>(sa.dmaBytes));
    EXPECT_DOUBLE_EQ(c.find("dma_bytes_mib")->b * 1024 * 1024, static_cast<double>(sb.dmaBytes));
    EXPECT_DOUBLE_EQ(c.find("dma_exposed_us")->a, static_cast<double>(sa.dmaExposedPs) / 1e6);
    EXPECT_DOUBLE_EQ(c.find("dma_exposed_us")->b, static_cast<double>(sb.dmaExposedPs) / 1e6);
    EXPECT_DOUBLE_EQ(c.find("sbuf_peak_kib")->a * 1024, static_cast<double>(sa.sbufPeakBytes));
    EXPECT_DOUBLE_EQ(c.find("sbuf_peak_kib")->b * 1024, static_cast<double>(sb.sbufPeakBytes));
    EXPECT_DOUBLE_EQ(c.find("psum_peak_kib")->b * 1024, static_cast<double>(sb.psumPeakBytes));
    EXPECT_DOUBLE_EQ(c.find("instructions")->a, static_cast<double>(sa.instructionCount));
    EXPECT_DOUBLE_EQ(c.find("instructions")->b, static_cast<double>(sb.instructionCount));
    EXPECT_DOUBLE_EQ(c.speedup(), total->a / total->b);
}

TEST(RunComparison, InstructionCountsByOperation) {
    const auto a = run(streamIr(2, 1024), "trn1");
    const auto b = run(streamIr(5, 1024), "trn1");
    const RunComparison c(*a, *b, "two", "five");
    ASSERT_NE(c.find("ops.dma_copy"), nullptr);
    EXPECT_EQ(c.find("ops.dma_copy")->a, 4);
    EXPECT_EQ(c.find("ops.dma_copy")->b, 10);
    EXPECT_EQ(c.find("ops.tensor_copy")->delta(), 3);
    EXPECT_EQ(c.find("ops.nc_matmul"), nullptr) << "operations neither run uses are left out";
    double sumA = 0;
    for (const auto& row : c.rows()) {
        if (row.key.starts_with("ops.")) {
            sumA += row.a;
        }
    }
    EXPECT_EQ(sumA, c.find("instructions")->a);
}

TEST(RunComparison, SameRunHasNoDelta) {
    const auto a = run(streamIr(3, 2048), "trn1");
    const RunComparison c(*a, *a, "A", "A");
    for (const auto& row : c.rows()) {
        EXPECT_EQ(row.delta(), 0) << row.key;
    }
    EXPECT_FALSE(c.find("active_pct.tensor")->deltaPct().has_value()) << "0% of nothing is not a percentage";
    const std::string text = formatComparison(c);
    EXPECT_NE(text.find("Total time (us)"), std::string::npos);
}

} // namespace kl::core
