#include "TestIr.h"

#include "hw/HardwareChoice.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

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

namespace {

nlohmann::json profileJson(const std::string& name) {
    std::ifstream in(std::string(KL_SOURCE_DIR) + "/resources/hw/" + name + ".json");
    return nlohmann::json::parse(in);
}

/// "group.key" of every {"value", "unit", "source"} field in a profile's JSON.
std::vector<std::string> numberFields(const nlohmann::json& j) {
    std::vector<std::string> out;
    for (const auto& [group, fields] : j.items()) {
        if (!fields.is_object()) {
            continue;
        }
        for (const auto& [key, field] : fields.items()) {
            out.push_back(group + "." + key);
        }
    }
    return out;
}

} // namespace

TEST(HardwareProfile, Trn3CarriesTheTrainium3GuideNumbers) {
    const HardwareProfile trn3 = profile("trn3");
    EXPECT_EQ(trn3.name, "trn3");
    EXPECT_DOUBLE_EQ(trn3.tensorGhz, 2.4);
    EXPECT_DOUBLE_EQ(trn3.vectorGhz, 1.2); // 0.96 on trn2
    EXPECT_DOUBLE_EQ(trn3.scalarGhz, 1.2);
    EXPECT_DOUBLE_EQ(trn3.gpsimdGhz, 1.2);
    EXPECT_DOUBLE_EQ(trn3.sbuf.partitions * trn3.sbuf.partitionBytes, 32.0 * 1024 * 1024); // 28 MiB on trn2
    EXPECT_DOUBLE_EQ(trn3.psum.partitions * trn3.psum.partitionBytes, 2.0 * 1024 * 1024);  // unchanged
    EXPECT_DOUBLE_EQ(trn3.psum.bankBytes, 2048);
    EXPECT_DOUBLE_EQ(trn3.dma.engines, 16);
    EXPECT_DOUBLE_EQ(trn3.dma.engineBytesPerNs, 33);
    EXPECT_DOUBLE_EQ(trn3.dma.coreBytesPerNs, 528);
    EXPECT_DOUBLE_EQ(trn3.hbmBytesPerNs * 8, 4700);       // 4.7 TB/s over 8 NeuronCore-v4
    EXPECT_NEAR(trn3.peakFlopsPerNs() / 1000.0, 79, 0.7); // the guide's 79 BF16 TFLOPS per core
}

TEST(HardwareProfile, EveryBundledNumberNamesItsSourceAndAssumptionsAreMarked) {
    for (std::string_view name : kBundledProfiles) {
        SCOPED_TRACE(std::string(name));
        const nlohmann::json j = profileJson(std::string(name));
        std::vector<std::string> marked;
        for (const std::string& field : numberFields(j)) {
            const auto dot = field.find('.');
            const auto& f = j[field.substr(0, dot)][field.substr(dot + 1)];
            ASSERT_TRUE(f.contains("value") && f.contains("unit")) << field;
            ASSERT_TRUE(f.contains("source") && f["source"].is_string()) << field;
            const std::string source = f["source"];
            EXPECT_GT(source.size(), 20u) << field << ": a source names a document, not just a word";
            EXPECT_EQ(source.find("shared/reference"), std::string::npos) << field << ": cite the public docs";
            if (source.starts_with(kAssumptionPrefix)) {
                marked.push_back(field);
            }
        }
        const HardwareProfile p = profile(std::string(name));
        EXPECT_EQ(p.name, name);
        std::vector<std::string> loaded = p.assumptions;
        std::ranges::sort(loaded);
        std::ranges::sort(marked);
        EXPECT_EQ(loaded, marked);
    }
}

TEST(HardwareProfile, Trn3AssumptionsAreTheNumbersNoPublicDocumentGivesForNeuronCoreV4) {
    const HardwareProfile trn3 = profile("trn3");
    const std::set<std::string> assumed(trn3.assumptions.begin(), trn3.assumptions.end());
    const std::set<std::string> expected{"costs.access_overhead",
                                         "costs.matmul_min_interval",
                                         "costs.load_stationary_speedup",
                                         "costs.gpsimd_startup",
                                         "costs.bn_aggr_factor",
                                         "costs.tensor_tensor_slow_factor",
                                         "costs.tensor_reduce_fast_divisor",
                                         "costs.vector_fast_copy_divisor",
                                         "costs.vector_fast_divisor",
                                         "costs.memset_zero_divisor",
                                         "costs.transpose_fp32_factor",
                                         "dma.transpose_efficiency",
                                         "dma.sbuf_transpose_efficiency",
                                         "dma.efficiency_by_bytes_per_partition"};
    EXPECT_EQ(assumed, expected);
    // The device figures are sourced, not assumed.
    for (const char* sourced :
         {"clocks.tensor", "sbuf.partition_bytes", "dma.core_bandwidth", "hbm.bandwidth_per_core"}) {
        EXPECT_FALSE(assumed.contains(sourced)) << sourced;
    }
}

TEST(HardwareProfile, AnAssumptionMustSayWhatItIsAssumedFrom) {
    nlohmann::json j = profileJson("trn1");
    j["costs"]["min_ii"]["source"] = "ASSUMPTION:  ";
    auto bare = HardwareProfile::loadString(j.dump(), "bare.json");
    ASSERT_FALSE(bare.has_value());
    EXPECT_NE(bare.error().message.find("costs.min_ii"), std::string::npos);

    j["costs"]["min_ii"]["source"] = "ASSUMPTION: the NeuronCore-v2 figure, no other published";
    auto marked = HardwareProfile::loadString(j.dump(), "marked.json");
    ASSERT_TRUE(marked.has_value()) << formatError(marked.error());
    EXPECT_NE(std::ranges::find(marked->assumptions, "costs.min_ii"), marked->assumptions.end());
}

TEST(HardwareProfile, TheBundledListIsTheProfilesInResources) {
    namespace fs = std::filesystem;
    std::set<std::string> files;
    for (const auto& entry : fs::directory_iterator(fs::path(KL_SOURCE_DIR) / "resources" / "hw")) {
        if (entry.path().extension() == ".json") {
            files.insert(entry.path().stem().string());
        }
    }
    const std::set<std::string> listed(kBundledProfiles.begin(), kBundledProfiles.end());
    EXPECT_EQ(files, listed);
    EXPECT_TRUE(listed.contains(std::string(defaultProfileFor(KernelApi::Nki))));
    EXPECT_TRUE(listed.contains(std::string(defaultProfileFor(KernelApi::Legacy))));
    EXPECT_EQ(bundledProfileList(), "trn1, trn2, trn3");
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
    EXPECT_NE(unknown.error().hint.find("trn1, trn2, trn3"), std::string::npos);

    auto byPath = ProfileLocator::resolve((root / "resources" / "hw" / "trn1.json").string(), {});
    EXPECT_TRUE(byPath.has_value());
    EXPECT_FALSE(ProfileLocator::resolve("/nope/x.json", {}).has_value());
    fs::remove_all(root);
}

} // namespace kl::sim::test
