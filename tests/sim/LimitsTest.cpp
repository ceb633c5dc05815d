// Numbers from a profile or an IR are range-checked before they become counts, sizes or times (issue 17): each
// extreme value is a clean error naming the file and the field, and the simulator stops a run whose time or
// byte totals would overflow instead of wrapping.
#include "TestIr.h"

#include "engine/Simulator.h"
#include "hw/ProfileFields.h"
#include "ir/IrLoader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kl::sim::test {
namespace {

std::string trn1Text() {
    std::ifstream in(std::string(KL_SOURCE_DIR) + "/resources/hw/trn1.json");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

/// trn1.json with `group.key`'s value written as `raw` (JSON text, so 1e999 and 2^63 stay as written).
std::string profileWith(const std::string& group, const std::string& key, const std::string& raw) {
    nlohmann::json j = nlohmann::json::parse(trn1Text());
    j[group][key]["value"] = "@@";
    std::string text = j.dump();
    text.replace(text.find("\"@@\""), 4, raw);
    return text;
}

struct BadField {
    const char* group;
    const char* key;
    const char* raw;
    const char* fragment;
};

void PrintTo(const BadField& c, std::ostream* os) {
    *os << c.group << "." << c.key << " = " << c.raw;
}

class ProfileRange : public ::testing::TestWithParam<BadField> {};

TEST_P(ProfileRange, IsACleanErrorNamingTheField) {
    const BadField& c = GetParam();
    auto p = HardwareProfile::loadString(profileWith(c.group, c.key, c.raw), "bad.json");
    ASSERT_FALSE(p.has_value()) << c.group << "." << c.key << " = " << c.raw;
    EXPECT_EQ(p.error().file, "bad.json");
    EXPECT_NE(p.error().message.find(std::string(c.group) + "." + c.key), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find(c.fragment), std::string::npos) << p.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Issue17, ProfileRange,
    ::testing::Values(BadField{"dma", "queues", "1e308",
                               "expected a whole number from 1 to 64 queues, found the number 1e+308"},
                      BadField{"dma", "fixed_latency", "1e308", "from 0 to 1e+09 ns"},
                      BadField{"dma", "queues", "1e10", "found the number 10000000000"},
                      BadField{"dma", "queues", "2147483648", "from 1 to 64"},
                      BadField{"dma", "queues", "16.5", "whole number"},
                      BadField{"dma", "queues", "\"16\"", "found the string \"16\""},
                      BadField{"dma", "engine_bandwidth", "0", "from 0.01"},
                      BadField{"clocks", "tensor", "0.001", "from 0.1 to 10 GHz"},
                      BadField{"costs", "load_stationary_speedup", "0", "from 0.01"},
                      BadField{"sbuf", "partition_bytes", "9223372036854775808", "found the number"},
                      BadField{"psum", "bank_bytes", "null", "found null"},
                      BadField{"hbm", "bandwidth_per_core", "[1]", "found an array"}));

TEST(ProfileRange, NumberOverflowAndWrongShapesAreParseErrors) {
    auto overflow = HardwareProfile::loadString(profileWith("dma", "queues", "1e999"), "bad.json");
    ASSERT_FALSE(overflow);
    EXPECT_NE(overflow.error().message.find("not valid JSON"), std::string::npos);
    auto table = HardwareProfile::loadString(
        profileWith("dma", "efficiency_by_bytes_per_partition", "[[32, 0.05], [16, 0.5]]"), "bad.json");
    ASSERT_FALSE(table);
    EXPECT_NE(table.error().message.find("ascending"), std::string::npos) << table.error().message;
    auto zero = HardwareProfile::loadString(profileWith("dma", "efficiency_by_bytes_per_partition", "[[32, 0]]"));
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.error().message.find("efficiency_by_bytes_per_partition[0]"), std::string::npos);
    auto name = HardwareProfile::loadString(R"({"profile_version": 1, "name": 7})");
    ASSERT_FALSE(name);
    EXPECT_NE(name.error().message.find("name: expected a non-empty string, found the number 7"), std::string::npos);
    EXPECT_FALSE(HardwareProfile::loadString(R"({"profile_version": "1"})"));
    EXPECT_FALSE(HardwareProfile::loadString("[]"));
}

TEST(ProfileRange, AProfileBuiltInCodeIsCheckedBeforeARun) {
    TestIr t;
    const int s = t.buffer("s", "sbuf", {128, 64});
    const int h = t.buffer("h", "hbm", {128, 64});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(h)});
    const KernelIr ir = t.load();
    for (const double queues : {1e308, 1e10, 2147483648.0, 0.0, std::nan("")}) {
        HardwareProfile hw = profile("trn1");
        hw.dma.queues = queues;
        auto r = Simulator::run(ir, hw);
        ASSERT_FALSE(r) << queues;
        EXPECT_NE(r.error().message.find("dma.queues"), std::string::npos) << r.error().message;
    }
    HardwareProfile latency = profile("trn1");
    latency.dma.fixedLatencyNs = 1e308;
    EXPECT_FALSE(Simulator::run(ir, latency));
}

struct BadIr {
    const char* from;
    const char* to;
    const char* fragment;
};

void PrintTo(const BadIr& c, std::ostream* os) {
    *os << c.from << " -> " << c.to;
}

class IrRange : public ::testing::TestWithParam<BadIr> {};

/// A small valid IR (one load, one add) whose text each case edits.
std::string smallIr() {
    TestIr t;
    const int s = t.buffer("s", "sbuf", {128, 64});
    const int h = t.buffer("h", "hbm", {128, 64});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.hbm(h, 0, 128, 64, 64)});
    t.add("tensor_tensor", "vector", {t.whole(s)}, {t.whole(s), t.whole(s)}, {{"op0", "add"}});
    return t.str();
}

TEST_P(IrRange, IsACleanErrorNamingTheField) {
    std::string text = smallIr();
    const std::size_t at = text.find(GetParam().from);
    ASSERT_NE(at, std::string::npos) << GetParam().from << " not in " << text;
    text.replace(at, std::string_view(GetParam().from).size(), GetParam().to);
    auto ir = IrLoader::loadString(text, "k.ir.json");
    ASSERT_FALSE(ir) << text;
    EXPECT_EQ(ir.error().file, "k.ir.json");
    EXPECT_NE(ir.error().message.find(GetParam().fragment), std::string::npos) << ir.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Issue17, IrRange,
    ::testing::Values(
        BadIr{"\"bytes\":16384", "\"bytes\":9223372036854775807",
              "instruction #0 (id 0): bytes: expected an integer from 0 to 2^40, found the number 9223372036854775807"},
        BadIr{"\"bytes\":16384", "\"bytes\":-1", "bytes: expected an integer from 0 to 2^40"},
        BadIr{"\"elements\":8192", "\"elements\":1e300", "elements: expected an integer"},
        BadIr{"\"elements\":8192", "\"elements\":\"8192\"", "found the string \"8192\""},
        BadIr{"\"shape\":[128,64]", "\"shape\":[128,2199023255552]", "buffer #0: shape[1]: expected an integer"},
        BadIr{"\"shape\":[128,64]", "\"shape\":[128,1048576,1048576]", "more than 2^40 bytes per partition"},
        BadIr{"\"part\":[0,128]", "\"part\":[0,200]", "dst[0].part[1]: expected an integer from 0 to 128"},
        BadIr{"\"part\":[0,128]", "\"part\":[-1,1]", "part[0]"},
        BadIr{"[[1,64]]", "[[1,1099511627776],[1,1099511627776]]", "more than 2^40 elements"},
        BadIr{"[[1,64]]", "[[281474976710656,64]]", "reach past 2^48"},
        BadIr{"[[1,64]]", "[[1,64,3]]", "pattern[0]: expected [stride, count]"},
        BadIr{"\"buf\":0", "\"buf\":\"0\"", "buf: expected an integer"},
        BadIr{"\"op0\":\"add\"", "\"op0\":\"add\",\"moving_free\":-5", "attrs.moving_free"},
        BadIr{"\"instructions\":[", "\"instructions\":[7,",
              "instruction #0 (id none): instruction: expected an object"},
        BadIr{"\"instructions\":[", "\"instructions\":{\"a\":1},\"x\":[", "instructions: expected an array of objects"},
        BadIr{"\"ir_version\":1", "\"ir_version\":1.5", "version 1.5 is not supported"},
        BadIr{"\"files\":[\"kernel.py\"]", "\"files\":[3]", "files[0]: expected a file path"},
        BadIr{"\"grid\":[1]", "\"grid\":[1e999]", "not valid Kernel IR JSON"},
        BadIr{"\"grid\":[1]", "\"grid\":[-2]", "kernel.grid[0]"}));

/// An IR built in code (no loader) with instructions whose costs saturate: the run stops with an error before
/// simulated time could overflow.
TEST(SimLimits, TimePastTheLimitStopsTheRun) {
    HardwareProfile hw = profile("trn1");
    hw.vectorGhz = 0.1;
    hw.costs.tensorTensorSlowFactor = 1000;
    KernelIr ir;
    Buffer b;
    b.name = "s";
    b.memory = Memory::Sbuf;
    b.shape = {128, 64};
    b.dtype = DType::Float32;
    b.dtypeBytes = 4;
    const std::uint32_t s = ir.addBuffer(b);
    const std::array<PatternDim, 1> dims{{{1, 64}}};
    AccessPattern ap;
    ap.buffer = s;
    ap.partCount = 128;
    ap.patternBegin = ir.addPattern(dims);
    ap.patternCount = 1;
    const std::array<AccessPattern, 1> dst{ap};
    for (int i = 0; i < 200; ++i) {
        Instruction in;
        in.op = Op::TensorTensor;
        in.engine = Engine::Vector;
        in.elements = std::int64_t{1} << 40;
        ir.addInstruction(in, dst, dst);
    }
    auto r = Simulator::run(ir, hw);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("simulation stopped at instruction #"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("2^61 ps"), std::string::npos) << r.error().message;
}

TEST(SimLimits, BytesPastTheLimitStopTheRun) {
    HardwareProfile hw = profile("trn1");
    hw.dma.coreBytesPerNs = hw.dma.engineBytesPerNs = hw.hbmBytesPerNs = 1e6;
    KernelIr ir;
    Buffer hbm;
    hbm.name = "h";
    hbm.shape = {128, 64};
    hbm.dtype = DType::Float32;
    hbm.dtypeBytes = 4;
    const std::uint32_t h = ir.addBuffer(hbm);
    Buffer sbuf = hbm;
    sbuf.memory = Memory::Sbuf;
    const std::uint32_t s = ir.addBuffer(sbuf);
    const std::array<PatternDim, 1> dims{{{1, 64}}};
    AccessPattern src;
    src.buffer = h;
    src.patternBegin = ir.addPattern(dims);
    src.patternCount = 1;
    AccessPattern dst = src;
    dst.buffer = s;
    dst.partCount = 128;
    // 2^54 bytes per transfer, from a destination pattern larger than the loader allows (only code can build it;
    // Instruction::bytes itself holds at most 2^41, and 0 means "from the destination").
    const std::array<PatternDim, 1> huge{{{1, std::int64_t{1} << 45}}};
    dst.patternBegin = ir.addPattern(huge);
    for (int i = 0; i < 1100; ++i) {
        Instruction in;
        in.op = Op::DmaCopy;
        in.engine = Engine::Dma;
        ir.addInstruction(in, std::array{dst}, std::array{src});
    }
    auto r = Simulator::run(ir, hw);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("more than 2^62 bytes"), std::string::npos) << r.error().message;
}

TEST(SimLimits, LiveBytesPastTheOccupancySeriesAreRefused) {
    // The occupancy series holds 32-bit levels: a run whose live SBUF bytes pass 2^31 - 1 is an error, never a cut
    // value. A tile of 128 partitions x 16 MiB is 2^31 bytes (far beyond SBUF: placed anyway as an overflow).
    const auto run = [](std::int64_t perPartition) {
        KernelIr ir;
        Buffer b;
        b.name = "huge";
        b.memory = Memory::Sbuf;
        b.shape = {128, perPartition / 4};
        b.dtype = DType::Float32;
        b.dtypeBytes = 4;
        const std::uint32_t s = ir.addBuffer(b);
        const std::array<PatternDim, 1> dims{{{1, perPartition / 4}}};
        AccessPattern ap;
        ap.buffer = s;
        ap.partCount = 128;
        ap.patternBegin = ir.addPattern(dims);
        ap.patternCount = 1;
        Instruction in;
        in.op = Op::Memset;
        in.engine = Engine::Vector;
        ir.addInstruction(in, std::array{ap}, {});
        return Simulator::run(ir, profile("trn1"));
    };
    const auto fits = run((std::int64_t{1} << 24) - 4); // 2^31 - 512 bytes live: the largest level is kept
    ASSERT_TRUE(fits) << fits.error().message;
    EXPECT_EQ((*fits)->sbuf.peakBytes, (std::int64_t{1} << 31) - 512);
    EXPECT_EQ(*std::ranges::max_element((*fits)->sbuf.bytes), (std::int64_t{1} << 31) - 512);
    const auto refused = run(std::int64_t{1} << 24);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("SBUF holds 2147483648 bytes of live tiles"), std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("2 GiB"), std::string::npos) << refused.error().message;
}

TEST(SimLimits, BytesInFlightPastTheDmaSeriesAreRefused) {
    // The DMA series holds 32-bit bytes in flight: one HBM-to-HBM copy of 2^31 bytes is refused, one byte less is kept.
    const auto run = [](std::int64_t bytes) {
        KernelIr ir;
        Buffer h;
        h.name = "h";
        h.shape = {std::int64_t{1} << 31};
        h.dtype = DType::Int8;
        h.dtypeBytes = 1;
        const std::uint32_t a = ir.addBuffer(h);
        const std::uint32_t b = ir.addBuffer(h);
        const std::array<PatternDim, 1> dims{{{1, std::int64_t{1} << 31}}};
        AccessPattern src;
        src.buffer = a;
        src.patternBegin = ir.addPattern(dims);
        src.patternCount = 1;
        AccessPattern dst = src;
        dst.buffer = b;
        Instruction in;
        in.op = Op::DmaCopy;
        in.engine = Engine::Dma;
        in.bytes = bytes;
        ir.addInstruction(in, std::array{dst}, std::array{src});
        return Simulator::run(ir, profile("trn1"));
    };
    const auto fits = run((std::int64_t{1} << 31) - 1);
    ASSERT_TRUE(fits) << fits.error().message;
    EXPECT_EQ(*std::ranges::max_element((*fits)->dma.bytesInFlight), (std::int64_t{1} << 31) - 1);
    const auto refused = run(std::int64_t{1} << 31);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("2147483648 bytes of DMA transfers are in flight"), std::string::npos)
        << refused.error().message;
}

TEST(SimLimits, BundledProfilesAndTheirFieldsAreInRange) {
    for (const char* name : {"trn1", "trn2", "trn3"}) {
        EXPECT_TRUE(checkProfile(profile(name), name)) << name;
    }
    EXPECT_EQ(profileFields().size(), 37u);
    EXPECT_NE(findProfileField("dma.queues"), nullptr);
    EXPECT_EQ(findProfileField("dma.wormholes"), nullptr);
}

} // namespace
} // namespace kl::sim::test
