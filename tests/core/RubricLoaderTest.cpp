#include "TestSupport.h"

#include "rubric/RubricLoader.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

TEST(RubricLoader, DefaultRubricHasTheFourAreas) {
    const std::string path = RubricLoader::defaultRubricPath();
    ASSERT_FALSE(path.empty());
    auto rubric = RubricLoader::loadFile(path);
    ASSERT_TRUE(rubric) << formatError(rubric.error());
    EXPECT_EQ(rubric->id, "nki-migration");
    ASSERT_EQ(rubric->areas.size(), 4u);
    EXPECT_EQ(rubric->areas[0].title, "Migration fidelity");
    EXPECT_EQ(rubric->areas[1].title, "Hardware appropriateness");
    EXPECT_EQ(rubric->areas[2].title, "Performance optimization");
    EXPECT_EQ(rubric->areas[3].title, "Numerical correctness");
    for (const char* id :
         {"hw.tile_shapes", "hw.partition_dim", "hw.memory_budget", "hw.engine_choice", "perf.dma", "perf.overlap",
          "perf.utilization", "num.accumulation", "num.rounding", "num.mixed_precision"}) {
        EXPECT_NE(rubric->findItem(id), nullptr) << id;
    }
    const RubricItem* overlap = rubric->findItem("perf.overlap");
    EXPECT_EQ(overlap->scale.kind, ScaleKind::Levels);
    EXPECT_EQ(overlap->scale.maxValue(), 5);
    EXPECT_EQ(rubric->findItem("num.accumulation")->scale.kind, ScaleKind::PassFail);
    EXPECT_EQ(overlap->scale.describe(1), "1 = Fully serial: load, compute, store");
}

TEST(RubricLoader, JsonSyntaxErrorGivesLine) {
    const std::string text = "{\n  \"format\": 1,\n  \"id\": \"x\",\n  \"title\": oops\n}\n";
    auto rubric = RubricLoader::parse(text, "broken.json");
    ASSERT_FALSE(rubric);
    EXPECT_EQ(rubric.error().code, ErrorCode::Parse);
    EXPECT_EQ(rubric.error().file, "broken.json");
    EXPECT_EQ(rubric.error().line, 4);
    EXPECT_NE(formatError(rubric.error()).find("broken.json:4:"), std::string::npos);
}

struct BrokenCase {
    const char* name;
    std::string json;
    const char* expected;
};

class BrokenRubric : public ::testing::TestWithParam<BrokenCase> {};

std::string wrap(const std::string& item) {
    return R"({"format": 1, "id": "r", "title": "R", "areas": [{"id": "a", "title": "A", "items": [)" + item + "]}]}";
}

TEST_P(BrokenRubric, NamesTheProblem) {
    auto rubric = RubricLoader::parse(GetParam().json, "r.json");
    ASSERT_FALSE(rubric) << GetParam().name;
    EXPECT_NE(rubric.error().message.find(GetParam().expected), std::string::npos) << rubric.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BrokenRubric,
    ::testing::Values(
        BrokenCase{"format", R"({"format": 2, "id": "r", "title": "R", "areas": []})", "\"format\" must be 1"},
        BrokenCase{"no_areas", R"({"format": 1, "id": "r", "title": "R"})", "missing field \"areas\""},
        BrokenCase{"no_title", R"({"format": 1, "id": "r", "areas": []})", "missing field \"title\""},
        BrokenCase{"no_items", R"({"format": 1, "id": "r", "title": "R", "areas": [{"id": "a", "title": "A"}]})",
                   "areas[0] (\"a\"): missing field \"items\""},
        BrokenCase{"item_guidance",
                   wrap(R"({"id": "i", "title": "T", "scale": {"kind": "pass_fail", "pass": "p", "fail": "f"}})"),
                   "areas[0].items[0] (\"i\"): missing field \"guidance\""},
        BrokenCase{"no_scale", wrap(R"({"id": "i", "title": "T", "guidance": "g"})"), "missing field \"scale\""},
        BrokenCase{"bad_kind", wrap(R"({"id": "i", "title": "T", "guidance": "g", "scale": {"kind": "stars"}})"),
                   "unknown kind \"stars\""},
        BrokenCase{
            "one_level",
            wrap(R"({"id": "i", "title": "T", "guidance": "g", "scale": {"kind": "levels", "levels": ["only"]}})"),
            "\"levels\" must be an array of 2 to 10"},
        BrokenCase{"no_fail",
                   wrap(R"({"id": "i", "title": "T", "guidance": "g", "scale": {"kind": "pass_fail", "pass": "p"}})"),
                   "missing field \"fail\""},
        BrokenCase{
            "weight",
            wrap(
                R"({"id": "i", "title": "T", "guidance": "g", "weight": -1, "scale": {"kind": "pass_fail", "pass": "p", "fail": "f"}})"),
            "\"weight\": expected a number greater than 0 and at most 1000, found the number -1"},
        BrokenCase{
            "huge_weight",
            wrap(
                R"({"id": "i", "title": "T", "guidance": "g", "weight": 1e308, "scale": {"kind": "pass_fail", "pass": "p", "fail": "f"}})"),
            "found the number 1e+308"},
        BrokenCase{"number_title", R"({"format": 1, "id": "r", "title": 7, "areas": []})",
                   "title: expected a non-empty string, found the number 7"},
        BrokenCase{"number_version", R"({"format": 1, "id": "r", "title": "R", "version": 2, "areas": []})",
                   "version: expected a non-empty string, found the number 2"},
        BrokenCase{"overflowing_number", R"({"format": 1, "id": "r", "title": "R", "pass_threshold": 1e999})",
                   "number overflow"},
        BrokenCase{"threshold", R"({"format": 1, "id": "r", "title": "R", "pass_threshold": 6, "areas": []})",
                   "pass_threshold: expected a number greater than 0 and at most 5"},
        BrokenCase{
            "duplicate",
            wrap(
                R"({"id": "i", "title": "T", "guidance": "g", "scale": {"kind": "pass_fail", "pass": "p", "fail": "f"}},
                           {"id": "i", "title": "T", "guidance": "g", "scale": {"kind": "pass_fail", "pass": "p", "fail": "f"}})"),
            "duplicate item id \"i\""},
        BrokenCase{"not_object", "[1, 2]", "top level must be a JSON object"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RubricLoader, ItemErrorPointsAtItsLine) {
    const std::string text = "{\"format\": 1, \"id\": \"r\", \"title\": \"R\", \"areas\": [\n"
                             "{\"id\": \"a\", \"title\": \"A\", \"items\": [\n"
                             "\n"
                             "{\"id\": \"the.item\", \"title\": \"T\", \"guidance\": \"g\"}]}]}\n";
    auto rubric = RubricLoader::parse(text, "r.json");
    ASSERT_FALSE(rubric);
    EXPECT_EQ(rubric.error().line, 4);
}

TEST(RubricLoader, MissingFile) {
    auto rubric = RubricLoader::loadFile("/nonexistent/rubric.json");
    ASSERT_FALSE(rubric);
    EXPECT_EQ(rubric.error().code, ErrorCode::NotFound);
    EXPECT_EQ(rubric.error().file, "/nonexistent/rubric.json");
}

} // namespace
} // namespace kl::core
