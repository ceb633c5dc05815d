// The roofline of a logical NeuronCore of two physical cores: both cores' TensorE and the DMA pool they share
// (twice one core's, as the simulator's DMA unit has it), so a run that moves more than one core could is not
// reported above 100 % of its roof.
#include "findings/Roofline.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "support/ResourcePaths.h"

#include <gtest/gtest.h>

namespace kl::core::findings::test {
namespace {

sim::HardwareProfile trn2() {
    auto path = sim::ProfileLocator::resolve("trn2", {dataRoot()});
    EXPECT_TRUE(path.has_value());
    auto profile = sim::HardwareProfile::loadFile(*path);
    EXPECT_TRUE(profile.has_value());
    return *profile;
}

/// A memory-bound run of 1000 ns that moved `roofs` times one core's memory roof from HBM, on `lnc` cores.
sim::SimResult memoryBoundRun(const sim::HardwareProfile& hw, double roofs, std::uint32_t lnc) {
    sim::SimResult r;
    r.lnc = lnc;
    r.summary.totalPs = 1'000'000;
    r.summary.flops = 0;
    r.dma.hbmBytes = static_cast<std::int64_t>(roofs * memoryRoofBytesPerNs(hw) * 1000.0);
    return r;
}

TEST(RooflineLnc, TheMemoryRoofOfTwoCoresIsTheirSharedPool) {
    const auto hw = trn2();
    EXPECT_DOUBLE_EQ(memoryRoofBytesPerNs(hw, 2), 2 * memoryRoofBytesPerNs(hw));
    const RooflinePoint one = rooflineOf(memoryBoundRun(hw, 0.95, 1), hw, 0);
    const RooflinePoint two = rooflineOf(memoryBoundRun(hw, 1.9, 2), hw, 0);
    EXPECT_FALSE(two.computeBound);
    EXPECT_NEAR(one.attainedPct, 95.0, 0.1);
    EXPECT_NEAR(two.attainedPct, 95.0, 0.1) << "1.9 roofs of one core on two cores is 95 % of the pair's roof";
    EXPECT_DOUBLE_EQ(two.peakFlopsPerNs, 2 * one.peakFlopsPerNs);
    EXPECT_DOUBLE_EQ(two.ridge, one.ridge) << "both roofs double, so the ridge stays";
}

} // namespace
} // namespace kl::core::findings::test
