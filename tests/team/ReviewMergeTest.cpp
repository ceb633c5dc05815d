// review merge: every reviewer's work kept with its author, nothing overwritten, idempotent, inputs untouched,
// and inputs that are not reviews of the same tasks refused with nothing written.
#include "TeamTestSupport.h"

#include "team/ReviewMerge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kl::core::team {
namespace {

using test::Scratch;

Annotation note(std::int64_t task, Anchor anchor, const std::string& author, const std::string& text) {
    Annotation a;
    a.taskId = task;
    a.anchor = anchor;
    a.author = author;
    a.text = text;
    return a;
}

/// Three reviewers, two tasks: ana and bo disagree on semantics of task 0; each flags NKI lines.
struct ThreeReviewers {
    Scratch dir;
    std::string ana = dir.file("ana.klreview"), bo = dir.file("bo.klreview"), cy = dir.file("cy.klreview");

    ThreeReviewers() {
        for (const auto& [path, who, semantics] :
             {std::tuple{ana, "ana", 1}, std::tuple{bo, "bo", 0}, std::tuple{cy, "cy", 1}}) {
            auto file = test::reviewerFile(path, who, 2);
            const auto t0 = test::taskId(file, 0);
            EXPECT_TRUE(file.scores().set(t0, "fidelity.semantics", semantics, who));
            EXPECT_TRUE(file.scores().set(test::taskId(file, 1), "perf.dma", 3, who));
            auto a = file.annotations().create(note(t0, Anchor::nkiLines(10, 14), who, std::string("flag by ") + who));
            EXPECT_TRUE(a);
            EXPECT_TRUE(file.annotations().addReply(a->id, who, "my own reply"));
            EXPECT_TRUE(
                file.tasks().setStatus(t0, std::string(who) == "bo" ? TaskStatus::InProgress : TaskStatus::Done));
        }
    }
};

TEST(ReviewMerge, KeepsEveryReviewersScoresAnnotationsAndRepliesWithTheirAuthors) {
    ThreeReviewers r;
    const std::string before = test::readBytes(r.ana);
    auto summary = mergeReviews({r.ana, r.bo, r.cy}, r.dir.file("team.klreview"));
    ASSERT_TRUE(summary) << formatError(summary.error());
    EXPECT_EQ(summary->tasks, 2u);
    EXPECT_EQ(summary->reviewers, (std::vector<std::string>{"ana", "bo", "cy"}));
    EXPECT_EQ(summary->reviewerScores, 6u);
    EXPECT_EQ(summary->annotations, 3u);
    EXPECT_EQ(summary->replies, 3u);
    EXPECT_EQ(test::readBytes(r.ana), before); // inputs are only read

    auto team = ReviewFile::open(r.dir.file("team.klreview"));
    ASSERT_TRUE(team);
    const auto t0 = test::taskId(*team, 0);
    auto own = team->team().reviewerScores(t0);
    ASSERT_TRUE(own);
    ASSERT_EQ(own->size(), 3u);
    EXPECT_EQ((*own)[1].reviewer, "bo");
    EXPECT_EQ((*own)[1].value, 0);
    // No agreed grade yet: the reviewers' own scores are kept apart from it.
    EXPECT_TRUE(team->scores().list(t0)->empty());
    auto notes = team->annotations().list();
    ASSERT_EQ(notes->size(), 3u);
    EXPECT_EQ((*notes)[2].author, "cy");
    EXPECT_EQ((*notes)[2].text, "flag by cy");
    EXPECT_EQ(team->annotations().replies((*notes)[0].id)->front().author, "ana");
    // A team task is as far as its least advanced reviewer.
    EXPECT_EQ(team->tasks().get(t0)->status, TaskStatus::InProgress);
}

TEST(ReviewMerge, MergingTheSameWorkAgainChangesNothing) {
    ThreeReviewers r;
    ASSERT_TRUE(mergeReviews({r.ana, r.bo}, r.dir.file("team.klreview")));
    auto again = mergeReviews({r.ana, r.ana, r.bo}, r.dir.file("twice.klreview"));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->annotations, 2u);
    EXPECT_EQ(again->reviewerScores, 4u);
    EXPECT_GT(again->duplicatesSkipped, 0u);
    // A merged file merged with one of its own inputs: nothing new.
    auto nested = mergeReviews({r.dir.file("team.klreview"), r.bo}, r.dir.file("nested.klreview"));
    ASSERT_TRUE(nested) << formatError(nested.error());
    auto a = ReviewFile::open(r.dir.file("team.klreview"));
    auto b = ReviewFile::open(r.dir.file("nested.klreview"));
    EXPECT_EQ(a->annotations().list()->size(), b->annotations().list()->size());
    EXPECT_EQ(a->team().reviewerScores()->size(), b->team().reviewerScores()->size());
    EXPECT_EQ(a->team().reviewerScores().value(), b->team().reviewerScores().value());
}

TEST(ReviewMerge, RepliesMadeInDifferentCopiesOfOneAnnotationAreJoined) {
    Scratch dir;
    {
        auto file = test::reviewerFile(dir.file("a.klreview"), "ana", 1);
        ASSERT_TRUE(file.annotations().create(note(test::taskId(file, 0), Anchor::instruction(7), "ana", "why?")));
    }
    std::filesystem::copy_file(dir.file("a.klreview"), dir.file("b.klreview"));
    {
        auto b = ReviewFile::open(dir.file("b.klreview"));
        ASSERT_TRUE(b->annotations().addReply(b->annotations().list()->front().id, "bo", "because"));
    }
    auto summary = mergeReviews({dir.file("a.klreview"), dir.file("b.klreview")}, dir.file("team.klreview"));
    ASSERT_TRUE(summary) << formatError(summary.error());
    auto team = ReviewFile::open(dir.file("team.klreview"));
    auto notes = team->annotations().list();
    ASSERT_EQ(notes->size(), 1u);
    auto replies = team->annotations().replies(notes->front().id);
    ASSERT_EQ(replies->size(), 1u);
    EXPECT_EQ(replies->front().author, "bo");
}

TEST(ReviewMerge, ATaskWithDifferentFilesIsReportedAndNothingIsWritten) {
    Scratch dir;
    (void)test::reviewerFile(dir.file("a.klreview"), "ana", 2);
    {
        auto other = ReviewFile::create(dir.file("b.klreview"), {test::rubricJson(), "nki-migration.json", "bo"});
        ASSERT_TRUE(other);
        ASSERT_TRUE(other->tasks().add("task-1", "Task 1", {{"kernel.py", "nki", "# someone changed it\n"}}));
    }
    auto merged = mergeReviews({dir.file("a.klreview"), dir.file("b.klreview")}, dir.file("team.klreview"));
    ASSERT_FALSE(merged);
    EXPECT_NE(merged.error().message.find("task \"task-1\" has different files"), std::string::npos)
        << merged.error().message;
    EXPECT_FALSE(std::filesystem::exists(dir.file("team.klreview")));
}

TEST(ReviewMerge, OneReviewersTwoDifferentScoresForAnItemAreRefused) {
    Scratch dir;
    for (const auto& [name, value] : {std::pair{"a.klreview", 1}, std::pair{"b.klreview", 0}}) {
        auto file = test::reviewerFile(dir.file(name), "ana", 1);
        ASSERT_TRUE(file.scores().set(test::taskId(file, 0), "fidelity.semantics", value, "ana"));
    }
    auto merged = mergeReviews({dir.file("a.klreview"), dir.file("b.klreview")}, dir.file("team.klreview"));
    ASSERT_FALSE(merged);
    EXPECT_NE(merged.error().message.find("ana scored \"fidelity.semantics\" 1 in one file and 0"), std::string::npos)
        << merged.error().message;
    EXPECT_FALSE(std::filesystem::exists(dir.file("team.klreview")));
}

TEST(ReviewMerge, RefusesAnotherRubricAnExistingOutputAndAFileThatIsNoReview) {
    Scratch dir;
    (void)test::reviewerFile(dir.file("a.klreview"), "ana", 1);
    {
        std::string rubric = test::rubricJson();
        rubric.replace(rubric.find("\"nki-migration\""), 15, "\"other-rubric\"");
        auto other = ReviewFile::create(dir.file("b.klreview"), {rubric, "other.json", "bo"});
        ASSERT_TRUE(other) << formatError(other.error());
    }
    auto merged = mergeReviews({dir.file("a.klreview"), dir.file("b.klreview")}, dir.file("team.klreview"));
    ASSERT_FALSE(merged);
    EXPECT_NE(merged.error().message.find("uses rubric \"other-rubric\""), std::string::npos) << merged.error().message;

    {
        std::ofstream keep(dir.file("keep.klreview"));
        keep << "someone's file";
    }
    auto over = mergeReviews({dir.file("a.klreview")}, dir.file("keep.klreview"));
    ASSERT_FALSE(over);
    EXPECT_EQ(test::readBytes(dir.file("keep.klreview")), "someone's file");

    auto notReview = mergeReviews({dir.file("a.klreview"), dir.file("keep.klreview")}, dir.file("t.klreview"));
    ASSERT_FALSE(notReview);
    EXPECT_EQ(notReview.error().file, dir.file("keep.klreview"));
}

} // namespace
} // namespace kl::core::team
