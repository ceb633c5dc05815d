#include "TestSupport.h"

#include "cli/Commands.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core {
namespace {

struct CliResult {
    int code;
    std::string out;
    std::string err;
};

CliResult run(std::vector<std::string> args) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = kl::app::runReviewCommand(args);
    std::string out = ::testing::internal::GetCapturedStdout();
    std::string err = ::testing::internal::GetCapturedStderr();
    return {code, out, err};
}

class ReviewCli : public ::testing::Test {
protected:
    void SetUp() override {
        m_review = m_dir.file("r.klreview");
        m_task = test::makeTaskFolder(m_dir.path(), "matmul_tiled");
    }
    test::TempDir m_dir;
    std::string m_review;
    std::string m_task;
};

TEST_F(ReviewCli, FullSession) {
    auto created = run({"new", m_review, "--reviewer", "alice"});
    ASSERT_EQ(created.code, 0) << created.err;
    EXPECT_NE(created.out.find("nki-migration"), std::string::npos);
    auto added = run({"add-task", m_review, m_task});
    ASSERT_EQ(added.code, 0) << added.err;
    EXPECT_NE(added.out.find("task 1: matmul_tiled"), std::string::npos);
    auto note = run({"annotate", m_review, "--task", "1", "--time", "100:900", "--severity", "blocking", "--item",
                     "perf.overlap", "--score", "2", "--text", "loads not overlapped"});
    ASSERT_EQ(note.code, 0) << note.err;
    EXPECT_EQ(note.out, "annotation 1 saved\n");
    ASSERT_EQ(
        run({"annotate", m_review, "--task=1", "--nki-lines", "4-9", "--text", "tile too small", "--author", "bob"})
            .code,
        0);
    ASSERT_EQ(
        run({"annotate", m_review, "--task", "1", "--cuda-lines", "12", "--severity", "praise", "--text", "x"}).code,
        0);
    ASSERT_EQ(run({"annotate", m_review, "--task", "1", "--instruction", "17", "--text", "y"}).code, 0);
    auto scored = run({"score", m_review, "--task", "1", "--item", "num.accumulation", "--value", "1"});
    ASSERT_EQ(scored.code, 0) << scored.err;
    EXPECT_NE(scored.out.find("pass"), std::string::npos);

    auto listed = run({"list", m_review, "--json"});
    ASSERT_EQ(listed.code, 0) << listed.err;
    auto json = nlohmann::json::parse(listed.out);
    ASSERT_EQ(json["tasks"].size(), 1u);
    const auto& task = json["tasks"][0];
    EXPECT_EQ(task["folder"], "matmul_tiled");
    ASSERT_EQ(task["annotations"].size(), 4u);
    EXPECT_EQ(task["annotations"][0]["anchor"]["kind"], "time");
    EXPECT_EQ(task["annotations"][0]["anchor"]["t1_ns"], 900);
    EXPECT_EQ(task["annotations"][0]["author"], "alice");
    EXPECT_EQ(task["annotations"][1]["anchor"]["first_line"], 4);
    EXPECT_EQ(task["annotations"][1]["author"], "bob");
    EXPECT_EQ(task["annotations"][2]["anchor"]["last_line"], 12);
    EXPECT_EQ(task["annotations"][3]["anchor"]["instruction"], 17);
    EXPECT_EQ(task["scorecard"]["result"], "fail"); // unresolved blocking annotation

    auto replied = run({"reply", m_review, "--annotation", "1", "--text", "fixed in v2", "--author", "bob"});
    ASSERT_EQ(replied.code, 0) << replied.err;
    EXPECT_EQ(replied.out, "reply 1 saved\n");
    ASSERT_EQ(run({"resolve", m_review, "--annotation", "1"}).code, 0);
    ASSERT_EQ(run({"status", m_review, "--task", "1", "--set", "done"}).code, 0);
    EXPECT_EQ(run({"status", m_review, "--task", "1", "--set", "finished"}).code, 2);
    EXPECT_EQ(run({"resolve", m_review, "--annotation", "99"}).code, 1);
    auto after = nlohmann::json::parse(run({"list", m_review, "--json", "--open"}).out);
    EXPECT_EQ(after["tasks"][0]["status"], "done");
    EXPECT_EQ(after["tasks"][0]["annotations"].size(), 3u); // the resolved one is filtered out
    EXPECT_NE(after["tasks"][0]["scorecard"]["result"], "fail");

    auto filtered = run({"list", m_review, "--severity", "blocking", "--json"});
    EXPECT_EQ(nlohmann::json::parse(filtered.out)["tasks"][0]["annotations"].size(), 1u);
    auto text = run({"list", m_review});
    ASSERT_EQ(text.code, 0);
    EXPECT_NE(text.out.find("loads not overlapped"), std::string::npos);
    EXPECT_NE(text.out.find("(resolved)"), std::string::npos);
    EXPECT_NE(text.out.find("12 of 13 items unscored"), std::string::npos);
}

TEST_F(ReviewCli, ErrorsAreClearAndNonZero) {
    ASSERT_EQ(run({"new", m_review}).code, 0);
    auto again = run({"new", m_review});
    EXPECT_EQ(again.code, 1);
    EXPECT_NE(again.err.find("already exists"), std::string::npos);

    auto twoAnchors = run({"annotate", m_review, "--task", "1", "--time", "1:2", "--instruction", "3", "--text", "t"});
    EXPECT_EQ(twoAnchors.code, 2);
    EXPECT_NE(twoAnchors.err.find("exactly one anchor"), std::string::npos);
    auto badRange = run({"annotate", m_review, "--task", "1", "--time", "abc", "--text", "t"});
    EXPECT_EQ(badRange.code, 2);
    auto noTask = run({"annotate", m_review, "--task", "5", "--time", "1:2", "--text", "t"});
    EXPECT_EQ(noTask.code, 1);
    EXPECT_NE(noTask.err.find("no task with id 5"), std::string::npos);
    auto unknown = run({"list", m_review, "--bogus"});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_NE(unknown.err.find("unknown option '--bogus'"), std::string::npos);
    EXPECT_NE(unknown.err.find("kernellens-cli review list --help"), std::string::npos) << unknown.err;
    auto twice = run({"list", m_review, "--task", "1", "--task=2"});
    EXPECT_EQ(twice.code, 2);
    EXPECT_NE(twice.err.find("--task given twice"), std::string::npos) << twice.err;
    auto extra = run({"list", m_review, "other.klreview"});
    EXPECT_EQ(extra.code, 2);
    EXPECT_NE(extra.err.find("unexpected argument 'other.klreview'"), std::string::npos) << extra.err;
    auto notReview = run({"list", m_task + "/kernel.py"});
    EXPECT_EQ(notReview.code, 1);
    EXPECT_NE(notReview.err.find("not a KernelLens review file"), std::string::npos);
    EXPECT_NE(notReview.err.find("kernel.py"), std::string::npos);
    auto badScore = run({"score", m_review, "--task", "1", "--item", "perf.overlap", "--value", "9"});
    EXPECT_NE(badScore.code, 0);
    auto badSub = run({"frobnicate", m_review});
    EXPECT_EQ(badSub.code, 2);
    auto badRubric = run({"new", m_dir.file("b.klreview"), "--rubric", m_task + "/task.json"});
    EXPECT_EQ(badRubric.code, 1);
    EXPECT_NE(badRubric.err.find("task.json"), std::string::npos);
}

TEST_F(ReviewCli, AnInstructionIdIsCheckedAgainstTheTasksLastRun) {
    ASSERT_EQ(run({"new", m_review, "--reviewer", "alice"}).code, 0);
    ASSERT_EQ(run({"add-task", m_review, m_task}).code, 0);
    // No run stored yet: accepted with a note that it was not checked.
    auto unchecked = run({"annotate", m_review, "--task", "1", "--instruction", "999999", "--text", "x"});
    EXPECT_EQ(unchecked.code, 0) << unchecked.err;
    EXPECT_NE(unchecked.err.find("not checked"), std::string::npos) << unchecked.err;
    {
        auto file = ReviewFile::open(m_review);
        ASSERT_TRUE(file);
        SimRun r;
        r.taskId = 1;
        r.label = "trn1";
        r.profileJson = "{}";
        r.summaryJson = R"({"summary": {"instruction_count": 100}})";
        ASSERT_TRUE(file->runs().add(r));
    }
    auto outside = run({"annotate", m_review, "--task", "1", "--instruction", "999999", "--text", "x"});
    EXPECT_EQ(outside.code, 1);
    EXPECT_NE(outside.err.find("has 100 instructions (ids 0 to 99)"), std::string::npos) << outside.err;
    EXPECT_EQ(run({"annotate", m_review, "--task", "1", "--instruction", "99", "--text", "x"}).code, 0);
    EXPECT_EQ(run({"annotate", m_review, "--task", "1", "--instruction", "-1", "--text", "x"}).code, 1);
}

TEST_F(ReviewCli, HelpPerSubcommand) {
    for (const char* sub : {"new", "add-task", "annotate", "score", "list", "reply", "resolve", "status"}) {
        auto help = run({sub, "--help"});
        EXPECT_EQ(help.code, 0) << sub;
        EXPECT_NE(help.out.find(std::string("review ") + sub), std::string::npos) << help.out;
    }
    EXPECT_EQ(run({"--help"}).code, 0);
    EXPECT_EQ(run({}).code, 2);
}

} // namespace
} // namespace kl::core
