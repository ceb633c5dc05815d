#include "TestIr.h"

#include "engine/Simulator.h"
#include "output/TextReport.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

TEST(TextReport, SummaryAndTimelineAreDeterministicAndComplete) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 512});
    const int s = t.buffer("s", "sbuf", {128, 512});
    const int st = t.buffer("st", "sbuf", {128, 128});
    const int ps = t.buffer("ps", "psum", {128, 512}, "float32");
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)}, TestIr::Json::object(), 12);
    t.add("memset", "vector", {t.whole(st)}, {}, TestIr::Json::object(), 13);
    t.add("nc_matmul", "tensor", {t.whole(ps)}, {t.whole(st), t.whole(s)}, TestIr::Json::object(), 14);
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn1"));
    const std::string summary = TextReport::summary(*r);
    EXPECT_NE(summary.find("Kernel test_kernel on trn1"), std::string::npos);
    EXPECT_NE(summary.find("TensorE"), std::string::npos);
    EXPECT_NE(summary.find("dependency"), std::string::npos);
    const std::string timeline = TextReport::timeline(*r, 2, 40);
    EXPECT_NE(timeline.find("first 2 of 3"), std::string::npos);
    EXPECT_NE(timeline.find("dma.q0"), std::string::npos);
    EXPECT_EQ(timeline, TextReport::timeline(*r, 2, 40));
    const std::string all = TextReport::timeline(*r, 10, 40);
    EXPECT_NE(all.find("dependency #0"), std::string::npos);
    EXPECT_NE(all.find("pe.mm"), std::string::npos);
    EXPECT_EQ(formatDuration(1'500'000'000), "1.500 ms");
}

TEST(TextReport, SummaryNamesTheHardwareChoiceWhenGiven) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 512});
    const int s = t.buffer("s", "sbuf", {128, 512});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)}, TestIr::Json::object(), 12);
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn2"));
    const std::string plain = TextReport::summary(*r);
    EXPECT_EQ(plain.find("Hardware"), std::string::npos); // golden summaries stay as they were
    const std::string named = TextReport::summary(*r, "trn2 (default for nki.* kernels)");
    EXPECT_TRUE(named.starts_with("Kernel test_kernel on trn2\nHardware          trn2 (default for nki.* kernels)\n"))
        << named;
    EXPECT_EQ(named.substr(named.find("Total time")), plain.substr(plain.find("Total time")));
}

} // namespace kl::sim::test
