#include "rubric/RubricLoader.h"
#include "rubric/Scorecard.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

// Two areas: "a" (weight 1) with a 5-level item (weight 3) and a 3-level item (weight 1) and a
// pass/fail item; "b" (weight 2) with one 5-level item.
Rubric testRubric() {
    auto rubric = RubricLoader::parse(R"({"format": 1, "id": "t", "title": "T", "pass_threshold": 3.0, "areas": [
      {"id": "a", "title": "A", "items": [
        {"id": "a.five", "title": "Five", "guidance": "g", "weight": 3,
         "scale": {"kind": "levels", "levels": ["1", "2", "3", "4", "5"]}},
        {"id": "a.three", "title": "Three", "guidance": "g",
         "scale": {"kind": "levels", "levels": ["low", "mid", "high"]}},
        {"id": "a.gate", "title": "Gate", "guidance": "g", "scale": {"kind": "pass_fail", "pass": "ok", "fail": "no"}}]},
      {"id": "b", "title": "B", "weight": 2, "items": [
        {"id": "b.five", "title": "Five", "guidance": "g",
         "scale": {"kind": "levels", "levels": ["1", "2", "3", "4", "5"]}}]}]})",
                                      "test");
    EXPECT_TRUE(rubric);
    return *rubric;
}

Score score(const char* item, int value) {
    return Score{1, item, value, "alice", {}};
}

Annotation blocking(bool resolved) {
    Annotation a;
    a.severity = Severity::Blocking;
    a.resolved = resolved;
    a.rubricItem = "a.five";
    return a;
}

TEST(Scorecard, EmptyIsIncompleteWithAllUnscored) {
    const Rubric r = testRubric();
    auto card = computeScorecard(r, {}, {});
    EXPECT_EQ(card.result, ScorecardResult::Incomplete);
    EXPECT_EQ(card.unscored.size(), 4u);
    EXPECT_FALSE(card.overall);
}

TEST(Scorecard, WeightedMeansPerAreaAndOverall) {
    const Rubric r = testRubric();
    std::vector<Score> scores{score("a.five", 5), score("a.three", 1), score("a.gate", 1), score("b.five", 2)};
    auto card = computeScorecard(r, scores, {});
    // Area a: (3*5 + 1*1) / 4 = 4 (a.three's 1 maps to 1.0). Area b: 2. Overall: (1*4 + 2*2) / 3.
    ASSERT_TRUE(card.areas[0].score);
    EXPECT_DOUBLE_EQ(*card.areas[0].score, 4.0);
    EXPECT_DOUBLE_EQ(*card.areas[1].score, 2.0);
    ASSERT_TRUE(card.overall);
    EXPECT_DOUBLE_EQ(*card.overall, 8.0 / 3.0);
    EXPECT_EQ(card.result, ScorecardResult::Fail); // below 3.0 with everything scored
    EXPECT_NE(card.reasons.front().find("below the pass threshold"), std::string::npos);
}

TEST(Scorecard, ThreeLevelScaleIsNormalized) {
    const Rubric r = testRubric();
    std::vector<Score> scores{score("a.three", 2)};
    auto card = computeScorecard(r, scores, {});
    EXPECT_DOUBLE_EQ(*card.areas[0].items[1].normalized, 3.0);
    EXPECT_EQ(card.areas[0].items[1].meaning, "2 = mid");
}

TEST(Scorecard, PassesWhenCompleteAboveThreshold) {
    const Rubric r = testRubric();
    std::vector<Score> scores{score("a.five", 4), score("a.three", 3), score("a.gate", 1), score("b.five", 3)};
    std::vector<Annotation> notes{blocking(true)};
    auto card = computeScorecard(r, scores, notes);
    EXPECT_EQ(card.result, ScorecardResult::Pass);
    EXPECT_TRUE(card.reasons.empty());
    EXPECT_EQ(card.areas[0].items[0].annotationCount, 1);
}

TEST(Scorecard, FailedGateOrOpenBlockingFailsEvenWhenIncomplete) {
    const Rubric r = testRubric();
    std::vector<Score> gateFailed{score("a.gate", 0)};
    auto card = computeScorecard(r, gateFailed, {});
    EXPECT_EQ(card.result, ScorecardResult::Fail);
    EXPECT_EQ(card.unscored.size(), 3u);

    std::vector<Score> good{score("a.five", 5), score("a.three", 3), score("a.gate", 1), score("b.five", 5)};
    std::vector<Annotation> notes{blocking(false), blocking(true)};
    card = computeScorecard(r, good, notes);
    EXPECT_EQ(card.result, ScorecardResult::Fail);
    EXPECT_EQ(card.unresolvedBlocking, 1);
}

TEST(Scorecard, PartialBelowThresholdStaysIncomplete) {
    const Rubric r = testRubric();
    std::vector<Score> scores{score("b.five", 1)};
    EXPECT_EQ(computeScorecard(r, scores, {}).result, ScorecardResult::Incomplete);
}

} // namespace
} // namespace kl::core
