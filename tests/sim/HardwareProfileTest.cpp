#include "TestIr.h"

#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kl::sim::test {

TEST(HardwareProfile, BundledProfilesCarryTheReferenceNumbers) {
    const HardwareProfile trn1 = profile("trn1");
    EXPECT_EQ(trn1.name, "trn1");
    EXPECT_DOUBLE_EQ(trn1.tensorGhz, 2.8);
    EXPECT_DOUBLE_EQ(trn1.vectorGhz, 1.12);
    EXPECT_DOUBLE_EQ(trn1.sbuf.partitionBytes, 192 * 1024);
    EXPECT_DOUBLE_EQ(trn1.psum.partitionBytes, 16 * 1024);
    EXPECT_DOUBLE_EQ(trn1.psum.bankBytes, 2048);
    EXPECT_DOUBLE_EQ(trn1.dma.coreBytesPerNs, 272);
    EXPECT_DOUBLE_EQ(trn1.dma.fixedLatencyNs, 1300);
    EXPECT_DOUBLE_EQ(trn1.costs.minIi, 64);
    EXPECT_NEAR(trn1.peakFlopsPerNs() / 1000.0, 91.75, 0.01); // ~92 TFLOPS BF16
    const HardwareProfile trn2 = profile("trn2");
    EXPECT_DOUBLE_EQ(trn2.tensorGhz, 2.4);
    EXPECT_DOUBLE_EQ(trn2.sbuf.partitionBytes, 224 * 1024);
    EXPECT_DOUBLE_EQ(trn2.dma.coreBytesPerNs, 368);
}

TEST(HardwareProfile, EfficiencyFallsForSmallTransfers) {
    const HardwareProfile p = profile("trn1");
    EXPECT_DOUBLE_EQ(p.dmaEfficiency(1 << 20), 1.0);
    EXPECT_DOUBLE_EQ(p.dmaEfficiency(4096), 1.0);
    EXPECT_LT(p.dmaEfficiency(256), 0.5);
    EXPECT_LT(p.dmaEfficiency(64), p.dmaEfficiency(256));
    EXPECT_LT(p.dmaEfficiency(1024), p.dmaEfficiency(2048));
    EXPECT_DOUBLE_EQ(p.dmaEfficiency(1), p.dma.efficiency.front().efficiency);
}

TEST(HardwareProfile, RejectsFieldsWithoutSource) {
    std::ifstream in(std::string(KL_SOURCE_DIR) + "/resources/hw/trn1.json");
    nlohmann::json j = nlohmann::json::parse(in);
    j["clocks"]["vector"].erase("source");
    auto p = HardwareProfile::loadString(j.dump(), "bad.json");
    ASSERT_FALSE(p.has_value());
    EXPECT_NE(p.error().message.find("clocks.vector"), std::string::npos);
    EXPECT_NE(p.error().message.find("source"), std::string::npos);

    j = nlohmann::json::parse(std::ifstream(std::string(KL_SOURCE_DIR) + "/resources/hw/trn1.json"));
    j["profile_version"] = 9;
    EXPECT_FALSE(HardwareProfile::loadString(j.dump()).has_value());
}

TEST(ProfileLocator, FindsResourcesUpwardsAndResolvesNames) {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / "kl_sim_locator_test";
    fs::remove_all(root);
    fs::create_directories(root / "resources" / "hw");
    fs::create_directories(root / "build" / "app");
    std::ofstream(root / "resources" / "hw" / "trn1.json") << "{}";

    auto dir = ProfileLocator::findHardwareDir({root / "build" / "app"});
    ASSERT_TRUE(dir.has_value());
    EXPECT_EQ(*dir, root / "resources" / "hw");

    auto byName = ProfileLocator::resolve("trn1", {fs::path{}, root / "build" / "app"});
    ASSERT_TRUE(byName.has_value());
    EXPECT_EQ(byName->filename(), "trn1.json");

    auto unknown = ProfileLocator::resolve("trn9", {root});
    ASSERT_FALSE(unknown.has_value());
    EXPECT_NE(unknown.error().message.find("trn9"), std::string::npos);

    auto byPath = ProfileLocator::resolve((root / "resources" / "hw" / "trn1.json").string(), {});
    EXPECT_TRUE(byPath.has_value());
    EXPECT_FALSE(ProfileLocator::resolve("/nope/x.json", {}).has_value());
    fs::remove_all(root);
}

} // namespace kl::sim::test
