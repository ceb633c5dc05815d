#include "compat/CompatManifest.h"

#include <gtest/gtest.h>

#include <string>

namespace kl::core {
namespace {

constexpr const char* kGood = R"json({"format": 1, "source": "github.com/example/kernels@abc123",
 "entries": [
   {"file": "src/pkg/core/cumsum/cumsum.py", "kernel": "cumsum",
    "args": [{"name": "x", "shape": [64, 4, 1024], "dtype": "bfloat16"}],
    "scalars": {"axis": "-1", "norm_type": "NormType.RMS_NORM", "shape2D": "(3, 4)"},
    "grid": [2, 2], "package_root": "src/pkg", "hw": "trn3", "shape_source": "test/test_cumsum.py:57",
    "note": "from the unit test"},
   {"file": "b.py", "kernel": "b"}
 ]})json";

TEST(CompatManifest, ReadsEveryField) {
    auto m = parseCompatManifest(kGood, "m.json");
    ASSERT_TRUE(m) << formatError(m.error());
    EXPECT_EQ(m->source, "github.com/example/kernels@abc123");
    ASSERT_EQ(m->entries.size(), 2u);
    const CompatEntry& e = m->entries[0];
    EXPECT_EQ(e.file, "src/pkg/core/cumsum/cumsum.py");
    EXPECT_EQ(e.kernel, "cumsum");
    ASSERT_EQ(e.args.size(), 1u);
    EXPECT_EQ(e.args[0].name, "x");
    EXPECT_EQ(e.args[0].shape, (std::vector<long long>{64, 4, 1024}));
    EXPECT_EQ(e.args[0].dtype, "bfloat16");
    using Scalars = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(e.scalars, (Scalars{{"axis", "-1"}, {"norm_type", "NormType.RMS_NORM"}, {"shape2D", "(3, 4)"}}));
    EXPECT_EQ(e.grid, (std::vector<long long>{2, 2}));
    EXPECT_EQ(e.packageRoot, "src/pkg");
    EXPECT_EQ(e.hardware, "trn3");
    EXPECT_EQ(e.shapeSource, "test/test_cumsum.py:57");
    EXPECT_EQ(e.note, "from the unit test");
}

TEST(CompatManifest, OptionalFieldsDefaultToEmpty) {
    auto m = parseCompatManifest(kGood, "m.json");
    ASSERT_TRUE(m);
    const CompatEntry& e = m->entries[1];
    EXPECT_TRUE(e.args.empty());
    EXPECT_TRUE(e.scalars.empty());
    EXPECT_TRUE(e.grid.empty());
    EXPECT_TRUE(e.packageRoot.empty());
    EXPECT_TRUE(e.hardware.empty());
    EXPECT_TRUE(e.shapeSource.empty());
}

TEST(CompatManifest, JsonSyntaxErrorNamesTheManifestAndLine) {
    auto m = parseCompatManifest("{\"format\": 1,\n \"entries\": [\n  {\"file\": oops}\n]}", "bench/m.json");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, ErrorCode::Parse);
    EXPECT_EQ(m.error().file, "bench/m.json");
    EXPECT_EQ(m.error().line, 3);
}

TEST(CompatManifest, MissingFileIsNotFound) {
    auto m = loadCompatManifest("/nonexistent/compat-manifest.json");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, ErrorCode::NotFound);
    EXPECT_EQ(m.error().file, "/nonexistent/compat-manifest.json");
}

struct BrokenCase {
    const char* name;
    std::string json;
    std::vector<std::string> expected; ///< each must appear in the message
};

std::string entries(const std::string& second) {
    return R"({"format": 1, "entries": [{"file": "a.py", "kernel": "a"}, )" + second + "]}";
}

class BrokenManifest : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenManifest, NamesTheManifestEntryAndField) {
    auto m = parseCompatManifest(GetParam().json, "m.json");
    ASSERT_FALSE(m) << GetParam().name;
    EXPECT_EQ(m.error().file, "m.json");
    EXPECT_FALSE(m.error().hint.empty());
    for (const std::string& part : GetParam().expected) {
        EXPECT_NE(m.error().message.find(part), std::string::npos)
            << GetParam().name << ": '" << part << "' not in: " << m.error().message;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BrokenManifest,
    ::testing::Values(
        BrokenCase{"not an object", "[1, 2]", {"JSON object"}},
        BrokenCase{"number overflow", R"({"format": 1e999, "entries": []})", {"not valid JSON", "1e999"}},
        BrokenCase{"no format", R"({"entries": []})", {"\"format\""}},
        BrokenCase{"format 2", R"({"format": 2, "entries": []})", {"format 2"}},
        BrokenCase{"source not text", R"({"format": 1, "source": 3, "entries": []})", {"\"source\""}},
        BrokenCase{"no entries", R"({"format": 1})", {"\"entries\""}},
        BrokenCase{"entries not a list", R"({"format": 1, "entries": {}})", {"\"entries\""}},
        BrokenCase{"entry not an object", entries("7"), {"entries[1]", "must be an object"}},
        BrokenCase{
            "missing file", entries(R"({"kernel": "k"})"), {"entries[1]", "kernel \"k\"", "\"file\"", "missing"}},
        BrokenCase{"missing kernel", entries(R"({"file": "k.py"})"), {"entries[1]", "\"kernel\" is missing"}},
        BrokenCase{"kernel not text", entries(R"({"file": "k.py", "kernel": 5})"), {"entries[1]", "\"kernel\""}},
        BrokenCase{"empty file", entries(R"({"file": "", "kernel": "k"})"), {"entries[1]", "\"file\"", "non-empty"}},
        BrokenCase{"unknown field",
                   entries(R"({"file": "k.py", "kernel": "k", "scaler": {}})"),
                   {"entries[1]", "\"scaler\"", "not a manifest field"}},
        BrokenCase{
            "args not a list", entries(R"({"file": "k.py", "kernel": "k", "args": {}})"), {"entries[1]", "\"args\""}},
        BrokenCase{"arg not an object",
                   entries(R"({"file": "k.py", "kernel": "k", "args": ["x"]})"),
                   {"entries[1]", "\"args[0]\""}},
        BrokenCase{"arg name",
                   entries(R"({"file": "k.py", "kernel": "k", "args": [{"name": "2x"}]})"),
                   {"entries[1]", "\"args[0].name\""}},
        BrokenCase{"arg without shape",
                   entries(R"({"file": "k.py", "kernel": "k", "args": [{"name": "x", "dtype": "bfloat16"}]})"),
                   {"entries[1]", "\"args[0].shape\" is missing"}},
        BrokenCase{
            "shape as text",
            entries(R"({"file": "k.py", "kernel": "k", "args": [{"name": "x", "shape": "64x4", "dtype": "f"}]})"),
            {"entries[1]", "\"args[0].shape\"", "positive whole numbers"}},
        BrokenCase{
            "negative shape",
            entries(R"({"file": "k.py", "kernel": "k", "args": [{"name": "x", "shape": [4, -1], "dtype": "f"}]})"),
            {"entries[1]", "\"args[0].shape\"", "[4,-1]"}},
        BrokenCase{"arg without dtype",
                   entries(R"({"file": "k.py", "kernel": "k", "args": [{"name": "x", "shape": [4]}]})"),
                   {"entries[1]", "\"args[0].dtype\""}},
        BrokenCase{"repeated arg",
                   entries(R"({"file": "k.py", "kernel": "k", "args": [
                       {"name": "x", "shape": [4], "dtype": "f"}, {"name": "x", "shape": [4], "dtype": "f"}]})"),
                   {"entries[1]", "\"args[1].name\"", "repeats"}},
        BrokenCase{"scalars not an object",
                   entries(R"({"file": "k.py", "kernel": "k", "scalars": ["axis=-1"]})"),
                   {"entries[1]", "\"scalars\""}},
        BrokenCase{"scalar as a number",
                   entries(R"({"file": "k.py", "kernel": "k", "scalars": {"axis": -1}})"),
                   {"entries[1]", "\"scalars.axis\"", "must be text"}},
        BrokenCase{
            "grid not a list", entries(R"({"file": "k.py", "kernel": "k", "grid": 4})"), {"entries[1]", "\"grid\""}},
        BrokenCase{"grid of four",
                   entries(R"({"file": "k.py", "kernel": "k", "grid": [1, 1, 1, 1]})"),
                   {"entries[1]", "\"grid\"", "1 to 3"}},
        BrokenCase{"package_root not text",
                   entries(R"({"file": "k.py", "kernel": "k", "package_root": ["a"]})"),
                   {"entries[1]", "\"package_root\"", "must be a string"}},
        BrokenCase{"hw not text", entries(R"({"file": "k.py", "kernel": "k", "hw": 2})"), {"entries[1]", "\"hw\""}}),
    [](const auto& info) {
        std::string name = info.param.name;
        for (char& c : name) {
            if (!std::isalnum(static_cast<unsigned char>(c))) {
                c = '_';
            }
        }
        return name;
    });

} // namespace
} // namespace kl::core
