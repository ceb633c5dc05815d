// The rules file: its format and errors, and that the bundled one and the rule registry agree (every rule has
// settings, every threshold a reason, every rubric item exists in the default rubric).
#include "findings/FindingsEngine.h"
#include "findings/RuleRegistry.h"
#include "findings/RulesFile.h"
#include "rubric/RubricLoader.h"
#include "support/ResourcePaths.h"

#include <gtest/gtest.h>

#include <set>

namespace kl::core::findings {
namespace {

const char* kMinimal = R"({"format": 1, "rubric": "nki-migration", "rules": {
  "exposed-dma": {"severity": "major", "rubric_item": "perf.overlap", "enabled": false,
    "thresholds": {"min_exposed_pct": {"value": 20, "unit": "%", "reason": "why", "source": "a guide"}}}}})";

TEST(RulesFile, ParsesSettingsAndThresholds) {
    auto file = parseRulesFile(kMinimal, "rules.json");
    ASSERT_TRUE(file) << formatError(file.error());
    EXPECT_EQ(file->rubric, "nki-migration");
    const RuleSettings* s = file->find("exposed-dma");
    ASSERT_NE(s, nullptr);
    EXPECT_FALSE(s->enabled);
    EXPECT_EQ(s->severity, Severity::Major);
    EXPECT_EQ(s->rubricItem, "perf.overlap");
    EXPECT_EQ(s->value("min_exposed_pct"), 20.0);
    EXPECT_EQ(s->thresholds.at("min_exposed_pct").source, "a guide");
    EXPECT_EQ(file->find("roofline"), nullptr);
}

struct BadCase {
    const char* json;
    const char* mentions;
};

void PrintTo(const BadCase& c, std::ostream* os) {
    *os << c.mentions;
}

class RulesFileErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(RulesFileErrors, NameWhatIsWrong) {
    auto file = parseRulesFile(GetParam().json, "rules.json");
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error().code, ErrorCode::Parse);
    EXPECT_EQ(file.error().file, "rules.json");
    EXPECT_NE(file.error().message.find(GetParam().mentions), std::string::npos) << file.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RulesFileErrors,
    ::testing::Values(
        BadCase{"[1]", "not a JSON object"}, BadCase{"{\"format\": 2}", "format"},
        BadCase{R"({"format": 1, "rules": {}})", "rubric"},
        BadCase{R"({"format": 1, "rubric": "r", "rules": {"x": {"severity": "huge", "rubric_item": "a"}}})", "huge"},
        BadCase{R"({"format": 1, "rubric": "r", "rules": {"x": {"severity": "minor"}}})", "rubric_item"},
        BadCase{R"({"format": 1, "rubric": "r", "rules": {"x": {"severity": "minor", "rubric_item": "a",
                   "thresholds": {"t": {"value": 1, "unit": "%"}}}}})",
                "x.thresholds.t has no \"reason\""},
        BadCase{R"({"format": 1, "rubric": "r", "rules": {"x": {"severity": "minor", "rubric_item": "a",
                   "thresholds": {"t": {"value": "1", "reason": "r"}}}}})",
                "value must be a number"}));

TEST(FindingsEngine, RefusesAFileWithoutEveryRule) {
    auto file = parseRulesFile(kMinimal, "rules.json");
    ASSERT_TRUE(file);
    auto engine = FindingsEngine::create(*file);
    ASSERT_FALSE(engine);
    EXPECT_NE(engine.error().message.find("no settings for rule"), std::string::npos) << engine.error().message;
}

TEST(FindingsEngine, RefusesAnUnknownRuleAndAMissingThreshold) {
    auto bundled = loadRulesFile(defaultRulesFilePath());
    ASSERT_TRUE(bundled) << formatError(bundled.error());

    RulesFile typo = *bundled;
    typo.rules.push_back(typo.rules.front());
    typo.rules.back().id = "exposed-dmaa";
    auto engine = FindingsEngine::create(typo);
    ASSERT_FALSE(engine);
    EXPECT_NE(engine.error().message.find("'exposed-dmaa' is not a rule"), std::string::npos);

    RulesFile missing = *bundled;
    missing.rules.front().thresholds.clear();
    engine = FindingsEngine::create(missing);
    ASSERT_FALSE(engine);
    EXPECT_NE(engine.error().message.find("has no threshold"), std::string::npos) << engine.error().message;
}

TEST(BundledRules, LoadAndCoverEveryRuleInRegistryOrder) {
    auto engine = FindingsEngine::createDefault();
    ASSERT_TRUE(engine) << formatError(engine.error());
    const auto ids = ruleIds();
    ASSERT_EQ(engine->rules().size(), ids.size());
    std::set<std::string_view> unique(ids.begin(), ids.end());
    EXPECT_EQ(unique.size(), ids.size()) << "rule ids must be unique";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        EXPECT_EQ(engine->rules()[i]->id(), ids[i]);
        EXPECT_FALSE(engine->rules()[i]->title().empty());
    }
    EXPECT_EQ(engine->rulesFile().rules.size(), ids.size());
}

TEST(BundledRules, EveryThresholdHasAReasonAndEveryItemIsInTheRubric) {
    auto file = loadRulesFile(defaultRulesFilePath());
    ASSERT_TRUE(file);
    auto rubric = RubricLoader::loadFile((resourcesDir() / "rubrics" / (file->rubric + ".json")).string());
    ASSERT_TRUE(rubric) << formatError(rubric.error());
    for (const RuleSettings& s : file->rules) {
        EXPECT_NE(rubric->findItem(s.rubricItem), nullptr) << s.id << ": " << s.rubricItem;
        EXPECT_FALSE(s.thresholds.empty()) << s.id;
        for (const auto& [name, t] : s.thresholds) {
            EXPECT_GT(t.reason.size(), 20u) << s.id << "." << name << ": a reason in words";
            EXPECT_FALSE(t.unit.empty()) << s.id << "." << name;
        }
    }
}

} // namespace
} // namespace kl::core::findings
