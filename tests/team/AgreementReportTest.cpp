// The agreement report of a merged review: the right level per item, Cohen for two reviewers and Fleiss for
// more, disagreements largest first, adjudication, annotation overlap, and the JSON keys of the CLI.
#include "TeamTestSupport.h"

#include "report/JsonReport.h"
#include "report/MarkdownReport.h"
#include "report/ReportBuilder.h"
#include "review/AdjudicateCommand.h"
#include "team/AgreementReport.h"
#include "team/ReviewMerge.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace kl::core::team {
namespace {

using test::Scratch;

/// `scores[r][t]` is reviewer r's score of `item` on task t (-1: not scored); merged into team.klreview.
ReviewFile mergedWith(Scratch& dir, const std::string& item, const std::vector<std::vector<int>>& scores) {
    std::vector<std::string> files;
    for (std::size_t r = 0; r < scores.size(); ++r) {
        const std::string who = "r" + std::to_string(r);
        files.push_back(dir.file(who + ".klreview"));
        auto file = test::reviewerFile(files.back(), who, static_cast<int>(scores[r].size()));
        for (std::size_t t = 0; t < scores[r].size(); ++t) {
            if (scores[r][t] >= 0) {
                EXPECT_TRUE(file.scores().set(test::taskId(file, static_cast<int>(t)), item, scores[r][t], who));
            }
        }
    }
    auto summary = mergeReviews(files, dir.file("team.klreview"));
    EXPECT_TRUE(summary) << formatError(summary.error());
    return std::move(ReviewFile::open(dir.file("team.klreview")).value());
}

TEST(AgreementReport, PassFailItemsAreNominalAndTwoReviewersGetCohensKappa) {
    Scratch dir;
    // Cohen's 2x2: tasks where both pass, both fail and the two kinds of disagreement.
    auto team = mergedWith(dir, "fidelity.semantics", {{1, 1, 0, 0, 1, 0}, {1, 0, 0, 0, 1, 1}});
    auto report = computeAgreement(team);
    ASSERT_TRUE(report);
    ASSERT_EQ(report->items.size(), 1u);
    const ItemAgreement& a = report->items[0];
    EXPECT_EQ(a.level, Level::Nominal);
    EXPECT_EQ(a.kappaMethod, "cohen");
    EXPECT_EQ(a.tasks, 6u);
    EXPECT_EQ(a.reviewers, 2u);
    // po = 4/6; each reviewer passes 3 of 6, pe = 0.5 -> kappa = (2/3 - 1/2) / (1/2) = 1/3.
    ASSERT_TRUE(a.kappa.value);
    EXPECT_NEAR(*a.kappa.value, 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(*a.percentAgreement.value, 4.0 / 6.0, 1e-12);
    EXPECT_EQ(report->disagreements.size(), 2u);
}

TEST(AgreementReport, LevelItemsAreOrdinalThreeReviewersGetFleissAndMissingScoresCount) {
    Scratch dir;
    auto team = mergedWith(dir, "perf.dma", {{5, 4, 1, 3}, {5, 4, 2, -1}, {5, 3, 1, 3}});
    auto report = computeAgreement(team);
    ASSERT_TRUE(report);
    const ItemAgreement& a = report->items.at(0);
    EXPECT_EQ(a.level, Level::Ordinal);
    EXPECT_EQ(a.kappaMethod, "fleiss");
    EXPECT_EQ(a.tasks, 4u);
    EXPECT_EQ(a.reviewers, 3u);
    EXPECT_NE(a.kappa.note.find("left out"), std::string::npos) << a.kappa.note; // task 3 lacks r1
    ASSERT_TRUE(a.alpha.value);
    EXPECT_GT(*a.alpha.value, 0.6); // close scores on an ordinal scale agree well
    // Largest spread first: task 2 (1 vs 2 of 5 levels) and task 1 (4 vs 3) have the same spread.
    ASSERT_EQ(report->disagreements.size(), 2u);
    EXPECT_DOUBLE_EQ(report->disagreements[0].spread, 0.25);
}

TEST(AgreementReport, AReviewerWhoNeverScoredAnItemDoesNotEmptyItsFleissKappa) {
    Scratch dir;
    std::vector<std::string> files;
    for (int r = 0; r < 4; ++r) {
        const std::string who = "r" + std::to_string(r);
        files.push_back(dir.file(who + ".klreview"));
        auto file = test::reviewerFile(files.back(), who, 3);
        for (int t = 0; t < 3; ++t) {
            const auto id = test::taskId(file, t);
            // r3 only scores semantics; the others only the DMA item, agreeing except on task 2.
            ASSERT_TRUE(r == 3 ? file.scores().set(id, "fidelity.semantics", 1, who)
                               : file.scores().set(id, "perf.dma", t == 2 && r == 0 ? 2 : t + 3, who));
        }
    }
    ASSERT_TRUE(mergeReviews(files, dir.file("team.klreview")));
    auto team = ReviewFile::open(dir.file("team.klreview"));
    auto report = computeAgreement(*team);
    ASSERT_TRUE(report);
    const auto dma = std::ranges::find(report->items, std::string("perf.dma"), &ItemAgreement::item);
    ASSERT_NE(dma, report->items.end());
    EXPECT_EQ(dma->reviewers, 3u);
    EXPECT_EQ(dma->kappaMethod, "fleiss");
    EXPECT_TRUE(dma->kappa.value.has_value()) << dma->kappa.note;
}

TEST(AgreementReport, AllIdenticalScoresAndASingleReviewerSayWhyAlphaIsUndefined) {
    Scratch dir;
    auto same = mergedWith(dir, "perf.dma", {{3, 3}, {3, 3}});
    auto report = computeAgreement(same);
    ASSERT_TRUE(report);
    EXPECT_FALSE(report->items[0].alpha.value);
    EXPECT_FALSE(report->items[0].alpha.note.empty());
    EXPECT_DOUBLE_EQ(*report->items[0].percentAgreement.value, 1.0);
    EXPECT_TRUE(report->disagreements.empty());

    Scratch other;
    auto alone = mergedWith(other, "perf.dma", {{3, 4}});
    auto single = computeAgreement(alone);
    ASSERT_TRUE(single);
    EXPECT_FALSE(single->items[0].alpha.value);
    EXPECT_EQ(single->items[0].kappaMethod, "");
}

TEST(AgreementReport, AdjudicationSetsTheAgreedGradeApartFromTheReviewersOwn) {
    Scratch dir;
    auto team = mergedWith(dir, "fidelity.semantics", {{1}, {0}});
    const auto task = test::taskId(team, 0);
    auto decided = team.team().adjudicate(task, "fidelity.semantics", 0, "the ragged tail is not masked", "lead");
    ASSERT_TRUE(decided) << formatError(decided.error());
    EXPECT_EQ(team.scores().find(task, "fidelity.semantics")->value().value, 0);
    EXPECT_EQ(team.team().reviewerScores(task)->size(), 2u); // the reviewers' own are untouched
    EXPECT_EQ(team.team().adjudications(task)->front().reason, "the ragged tail is not masked");
    auto report = computeAgreement(team);
    ASSERT_EQ(report->disagreements.size(), 1u);
    EXPECT_EQ(report->disagreements[0].agreed, 0);
    EXPECT_FALSE(team.team().adjudicate(task, "fidelity.semantics", 0, "", "lead"));  // a reason is required
    EXPECT_FALSE(team.team().adjudicate(task, "fidelity.semantics", 7, "x", "lead")); // outside the scale
}

TEST(AgreementReport, AnAdjudicationIsUndoneAndRedoneExactly) {
    Scratch dir;
    auto team = mergedWith(dir, "perf.dma", {{5}, {2}});
    const auto task = test::taskId(team, 0);
    ASSERT_TRUE(team.team().adjudicate(task, "perf.dma", 4, "first call", "lead"));
    AdjudicateCommand again(task, "perf.dma", 3, "second look: the loads are not overlapped", "lead");
    ASSERT_TRUE(again.apply(team));
    EXPECT_EQ(team.scores().find(task, "perf.dma")->value().value, 3);
    ASSERT_TRUE(again.revert(team));
    EXPECT_EQ(team.scores().find(task, "perf.dma")->value().value, 4);
    EXPECT_EQ(team.team().adjudications(task)->front().reason, "first call");
    ASSERT_TRUE(again.apply(team));
    EXPECT_EQ(team.team().adjudications(task)->front().reason, "second look: the loads are not overlapped");

    AdjudicateCommand fresh(test::taskId(team, 0), "fidelity.semantics", 1, "agreed in the meeting", "lead");
    ASSERT_TRUE(fresh.apply(team));
    ASSERT_TRUE(fresh.revert(team)); // there was no grade before: none after undo
    EXPECT_FALSE(team.scores().find(task, "fidelity.semantics")->has_value());
    EXPECT_EQ(team.team().adjudications(task)->size(), 1u);
}

TEST(AgreementReport, ReportsOfATeamReviewShowTheAgreementAndTheAgreedGradesWithReasons) {
    Scratch dir;
    auto team = mergedWith(dir, "fidelity.semantics", {{1, 1}, {0, 1}});
    ASSERT_TRUE(team.team().adjudicate(test::taskId(team, 0), "fidelity.semantics", 0, "tail <not> masked", "lead"));
    auto built = report::ReportBuilder(team, {.generatedAt = "t"}).build();
    ASSERT_TRUE(built) << formatError(built.error());
    ASSERT_TRUE(built->team.has_value());
    const std::string md = report::MarkdownReport::write(*built);
    EXPECT_NE(md.find("## Reviewer agreement"), std::string::npos);
    EXPECT_NE(md.find("tail &lt;not&gt; masked"), std::string::npos) << md; // escaped, never raw HTML
    const auto json = nlohmann::json::parse(report::JsonReport::write(*built, 2));
    EXPECT_EQ(json["agreement"]["adjudications"][0]["reason"], "tail <not> masked");
    EXPECT_EQ(json["agreement"]["items"][0]["n_reviewers"], 2);

    auto single = test::reviewerFile(dir.file("one.klreview"), "ana", 1);
    auto plain = report::ReportBuilder(single, {.generatedAt = "t"}).build();
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->team.has_value()); // a one-reviewer review has no agreement section
    EXPECT_FALSE(nlohmann::json::parse(report::JsonReport::write(*plain, 2)).contains("agreement"));
}

TEST(AnnotationOverlap, MatchesOneToOneByBestOverlapAndReportsPrecisionAndRecall) {
    auto at = [](std::int64_t task, const std::string& who, Anchor anchor) {
        Annotation a;
        a.taskId = task;
        a.author = who;
        a.anchor = anchor;
        return a;
    };
    const std::vector<Annotation> notes{
        at(1, "ana", Anchor::timeRange(0, 99)), // overlaps bo's first (IoU 0.5)
        at(1, "ana", Anchor::nkiLines(10, 12)), // bo flagged lines 11-11 and the CUDA lines 10-12
        at(1, "ana", Anchor::instruction(4)),   // nobody else
        at(1, "bo", Anchor::timeRange(50, 149)), at(1, "bo", Anchor::nkiLines(11, 11)),
        at(1, "bo", Anchor::cudaLines(10, 12)), // another source: never the same place as NKI lines
        at(2, "bo", Anchor::nkiLines(10, 12)),  // another task: never matches task 1
    };
    EXPECT_DOUBLE_EQ(anchorOverlap(notes[0].anchor, notes[3].anchor), 50.0 / 150.0);
    EXPECT_DOUBLE_EQ(anchorOverlap(notes[1].anchor, notes[5].anchor), 0.0);
    const auto overlap = annotationOverlap(notes);
    ASSERT_EQ(overlap.size(), 2u);
    EXPECT_EQ(overlap[0].reviewer, "ana");
    EXPECT_EQ(overlap[0].confirmed, 2u);
    EXPECT_NEAR(overlap[0].precision(), 2.0 / 3.0, 1e-12);
    EXPECT_NEAR(overlap[0].recall(), 2.0 / 4.0, 1e-12);
    EXPECT_EQ(overlap[1].confirmed, 2u);
    EXPECT_NEAR(overlap[1].precision(), 2.0 / 4.0, 1e-12);
}

TEST(AgreementReport, JsonHasTheDocumentedKeys) {
    Scratch dir;
    auto team = mergedWith(dir, "perf.dma", {{5, 4}, {4, 4}});
    const nlohmann::json j = agreementJson(computeAgreement(team).value());
    for (const char* key : {"reviewers", "items", "overall", "annotation_overlap", "disagreements"}) {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    const auto& item = j["items"][0];
    for (const char* key : {"item", "level", "alpha", "kappa", "percent_agreement", "n_tasks", "n_reviewers"}) {
        EXPECT_TRUE(item.contains(key)) << key;
    }
    EXPECT_EQ(item["level"], "ordinal");
    EXPECT_EQ(item["n_tasks"], 2);
    EXPECT_EQ(j["overall"]["level"], "interval");
    EXPECT_EQ(j["disagreements"][0]["scores"]["r0"], 5);
}

} // namespace
} // namespace kl::core::team
