#include "TestIr.h"

#include "engine/Simulator.h"
#include "whatif/WhatIfRun.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace kl::core {

namespace {

using sim::test::TestIr;

/// One 128-partition load of `free` bf16 elements per partition.
sim::KernelIr oneLoad(std::int64_t free) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, free});
    const int s = t.buffer("s", "sbuf", {128, free});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)});
    return t.load();
}

template <typename Result> double endNs(const Result& r) {
    const auto& tl = r.timeline;
    if constexpr (requires { tl.endPs(0); }) {
        return static_cast<double>(tl.endPs(0)) / 1000.0;
    } else {
        return static_cast<double>(tl.endPs[0]) / 1000.0;
    }
}

/// The profile's formula for one transfer alone: fixed latency + bytes / (efficiency x the narrowest of the
/// engines it fans out to, the core's DMA bandwidth and HBM).
double modelNs(const sim::HardwareProfile& p, double bytes, double partitions) {
    const double bytesPerPartition = bytes / partitions;
    const double engines = std::min(p.dma.engines, std::ceil(partitions / p.dma.partitionsPerEngine));
    const double rate = std::min({engines * p.dma.engineBytesPerNs, p.dma.coreBytesPerNs, p.hbmBytesPerNs});
    return p.dma.fixedLatencyNs + bytes / (rate * p.dmaEfficiency(bytesPerPartition));
}

} // namespace

TEST(WhatIf, DoubledDmaBandwidthShortensTransfersAsTheModelSays) {
    const auto ir = oneLoad(16384); // 32 KiB per partition, 4 MiB
    const auto base = sim::test::profile("trn1");
    const double bytes = 4194304.0;
    auto baseRun = simulateWhatIf(ir, base, {});
    ASSERT_TRUE(baseRun.has_value());
    EXPECT_NEAR(endNs(**baseRun), modelNs(base, bytes, 128), 1.0);

    // Doubling the DMA engines and the core's DMA bandwidth: HBM (410 B/ns on trn1) becomes the limit.
    const ProfileOverrides dmaOnly{{"dma.engine_bandwidth", 2 * base.dma.engineBytesPerNs},
                                   {"dma.core_bandwidth", 2 * base.dma.coreBytesPerNs}};
    auto dmaRun = simulateWhatIf(ir, base, dmaOnly);
    ASSERT_TRUE(dmaRun.has_value());
    const auto dmaProfile = *applyOverrides(base, dmaOnly);
    EXPECT_NEAR(endNs(**dmaRun), modelNs(dmaProfile, bytes, 128), 1.0);
    EXPECT_NEAR(endNs(**dmaRun), 1300.0 + bytes / 410.0, 1.0);

    // With HBM doubled too the data time halves exactly.
    ProfileOverrides all = dmaOnly;
    all["hbm.bandwidth_per_core"] = 2 * base.hbmBytesPerNs;
    auto allRun = simulateWhatIf(ir, base, all);
    ASSERT_TRUE(allRun.has_value());
    const double baseData = endNs(**baseRun) - base.dma.fixedLatencyNs;
    EXPECT_NEAR(endNs(**allRun) - base.dma.fixedLatencyNs, baseData / 2, 1.0);
    EXPECT_LT((*allRun)->summary.totalPs, (*baseRun)->summary.totalPs);
}

TEST(WhatIf, FixedLatencyAndQueuesChangeTheRun) {
    const auto ir = oneLoad(1024);
    const auto base = sim::test::profile("trn1");
    auto fast = simulateWhatIf(ir, base, {{"dma.fixed_latency", 300}});
    ASSERT_TRUE(fast.has_value());
    auto baseRun = simulateWhatIf(ir, base, {});
    EXPECT_NEAR(endNs(**baseRun) - endNs(**fast), 1000.0, 1.0);
    auto fewQueues = simulateWhatIf(ir, base, {{"dma.queues", 2}});
    ASSERT_TRUE(fewQueues.has_value());
    EXPECT_EQ((*fewQueues)->dma.queues, 2u);
}

TEST(WhatIf, BadOverridesAreErrorsNamingTheField) {
    const auto base = sim::test::profile("trn1");
    auto unknown = applyOverrides(base, {{"dma.warp_speed", 2}});
    ASSERT_FALSE(unknown.has_value());
    EXPECT_NE(unknown.error().message.find("dma.warp_speed"), std::string::npos);
    auto negative = applyOverrides(base, {{"dma.queues", 0}});
    ASSERT_FALSE(negative.has_value());
    EXPECT_NE(negative.error().message.find("dma.queues"), std::string::npos);
    auto rounded = applyOverrides(base, {{"dma.queues", 3.6}});
    ASSERT_TRUE(rounded.has_value());
    EXPECT_EQ(rounded->dma.queues, 4);
}

TEST(WhatIf, SavedProfileLoadsAndSaysWhatChanged) {
    auto base = loadBaseProfile("trn1");
    ASSERT_TRUE(base.has_value()) << base.error().message;
    const ProfileOverrides overrides{{"dma.core_bandwidth", 544}, {"dma.queues", 8}, {"clocks.tensor", 3.0}};
    auto text = writeWhatIfProfile(base->json, overrides, "trn1-fast-dma");
    ASSERT_TRUE(text.has_value()) << text.error().message;
    auto loaded = sim::HardwareProfile::loadString(*text, "saved");
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(loaded->name, "trn1-fast-dma");
    EXPECT_EQ(loaded->dma.coreBytesPerNs, 544);
    EXPECT_EQ(loaded->dma.queues, 8);
    EXPECT_EQ(loaded->tensorGhz, 3.0);
    EXPECT_EQ(loaded->hbmBytesPerNs, base->profile.hbmBytesPerNs);
    const auto json = nlohmann::json::parse(*text);
    const std::string changed = json["dma"]["core_bandwidth"]["source"];
    EXPECT_NE(changed.find("what-if"), std::string::npos) << changed;
    EXPECT_NE(changed.find("272"), std::string::npos) << "names the base value: " << changed;
    const auto baseJson = nlohmann::json::parse(base->json);
    EXPECT_EQ(json["hbm"]["bandwidth_per_core"]["source"], baseJson["hbm"]["bandwidth_per_core"]["source"]);
    EXPECT_TRUE(json["dma"]["queues"]["value"].is_number_integer());
}

} // namespace kl::core
