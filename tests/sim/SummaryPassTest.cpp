// The summary is a pass after the listeners (issue 22): SummaryCollector only counts while the run goes and
// summarise() reads what the other listeners left, so where it sits among the listeners changes nothing.
#include "TestIr.h"

#include "engine/Pipeline.h"
#include "engine/Simulator.h"
#include "listeners/SummaryCollector.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

namespace {

KernelIr smallKernel() {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 512});
    const int b = t.buffer("b", "hbm", {128, 512});
    const int out = t.buffer("out", "hbm", {128, 512});
    const int sa = t.buffer("sa", "sbuf", {128, 512});
    const int sb = t.buffer("sb", "sbuf", {128, 512});
    const int acc = t.buffer("acc", "psum", {128, 512});
    const int res = t.buffer("res", "sbuf", {128, 512});
    t.add("dma_copy", "dma", {t.whole(sa)}, {t.whole(a)});
    t.add("dma_copy", "dma", {t.whole(sb)}, {t.whole(b)});
    t.add("nc_matmul", "tensor", {t.whole(acc)}, {t.part(sa, 0, 128, 0, 128), t.whole(sb)});
    t.add("tensor_copy", "vector", {t.whole(res)}, {t.whole(acc)});
    t.add("dma_copy", "dma", {t.whole(out)}, {t.whole(res)});
    return t.load();
}

} // namespace

TEST(SummaryPass, CountsAloneThenTheOtherListenersResultsGiveTheSameSummary) {
    const KernelIr ir = smallKernel();
    const HardwareProfile hw = profile("trn1");
    const auto full = Simulator::run(ir, hw);
    ASSERT_TRUE(full.has_value()) << full.error().message;

    // The collector alone in a pipeline, then given the other listeners' results as they finished in the run.
    SummaryCollector alone;
    Pipeline pipeline(hw);
    pipeline.addListener(&alone);
    ASSERT_TRUE(pipeline.run(ir).has_value());
    SimResult partial;
    partial.dma = (*full)->dma;
    partial.overlap = (*full)->overlap;
    partial.sbuf = (*full)->sbuf;
    partial.psum = (*full)->psum;
    partial.spills = (*full)->spills;
    alone.finish(partial); // a listener's finish writes nothing: the figures come from the pass
    EXPECT_EQ(partial.summary.instructionCount, 0u);
    alone.summarise(partial);

    const SimSummary& want = (*full)->summary;
    const SimSummary& got = partial.summary;
    EXPECT_EQ(got.instructionCount, want.instructionCount);
    EXPECT_EQ(got.totalPs, want.totalPs);
    EXPECT_GT(got.totalPs, TimePs{0});
    for (std::size_t e = 0; e < want.engines.size(); ++e) {
        EXPECT_EQ(got.engines[e].busyPs, want.engines[e].busyPs) << e;
        EXPECT_DOUBLE_EQ(got.engines[e].activePct, want.engines[e].activePct) << e;
    }
    EXPECT_DOUBLE_EQ(got.dmaActivePct, want.dmaActivePct);
    EXPECT_GT(got.dmaActivePct, 0.0);
    EXPECT_DOUBLE_EQ(got.mfuPct, want.mfuPct);
    EXPECT_EQ(got.sbufPeakBytes, want.sbufPeakBytes);
    EXPECT_GT(got.sbufPeakBytes, 0);
    EXPECT_EQ(got.dmaBytes, want.dmaBytes);
}

} // namespace kl::sim::test
