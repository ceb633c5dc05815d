// Batch evaluation: finding tasks, content hashes, shards, the results file, and real batches through the CLI:
// failures recorded, resume after a SIGKILL with every task exactly once, any sharding equal to one run.
#include "BatchTestSupport.h"

#include "batch/BatchResults.h"
#include "batch/BatchTask.h"
#include "batch/Triage.h"
#include "review/ReviewFile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace kl::core::batch {
namespace {

namespace fs = std::filesystem;
using test::Scratch;

std::vector<StepResult> rowsOf(const fs::path& db) {
    auto r = BatchResults::open(db.string());
    return r ? r->all().value_or(std::vector<StepResult>{}) : std::vector<StepResult>{};
}

/// Rows without what differs between two runs of the same work (times).
std::set<std::string> comparable(const std::vector<StepResult>& rows) {
    std::set<std::string> out;
    for (const StepResult& r : rows) {
        out.insert(r.task + "|" + r.step + "|" + r.contentHash + "|" + r.status + "|" + r.error + "|" + r.figuresJson);
    }
    return out;
}

TEST(BatchTasks, FindsNestedTaskFoldersAndReadsManifests) {
    Scratch s;
    test::writeTask(s.path() / "set1", "a");
    test::writeTask(s.path() / "set1", "b");
    test::writeTask(s.path() / "set2" / "deeper", "c");
    fs::create_directories(s.path() / "empty");
    fs::path root;
    auto tasks = discoverTasks(s.path(), root);
    ASSERT_TRUE(tasks) << formatError(tasks.error());
    ASSERT_EQ(tasks->size(), 3u);
    EXPECT_EQ((*tasks)[0].key, "set1/a");
    EXPECT_EQ((*tasks)[2].key, "set2/deeper/c");

    std::ofstream(s.path() / "list.txt") << "# the first two\nset1/a\n  set1/b  \n\nnot/a/task\n";
    auto bad = discoverTasks(s.path() / "list.txt", root);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().file, (s.path() / "list.txt").string());
    EXPECT_EQ(bad.error().line, 5);
    std::ofstream(s.path() / "list.txt") << "set1/a\nset1/b\n";
    auto listed = discoverTasks(s.path() / "list.txt", root);
    ASSERT_TRUE(listed);
    EXPECT_EQ(listed->size(), 2u);

    auto single = discoverTasks(s.path() / "set1" / "a", root); // a task folder alone is a batch of one
    ASSERT_TRUE(single);
    ASSERT_EQ(single->size(), 1u);
    EXPECT_EQ(single->front().key, "a");
}

TEST(BatchTasks, ContentHashFollowsEveryFileButNotBytecodeCaches) {
    Scratch s;
    const fs::path t = test::writeTask(s.path(), "a");
    const auto before = taskContentHash(t).value();
    fs::create_directories(t / "__pycache__");
    std::ofstream(t / "__pycache__" / "kernel.cpython-311.pyc") << "cache";
    EXPECT_EQ(taskContentHash(t).value(), before);
    std::ofstream(t / "data.txt") << "x";
    EXPECT_NE(taskContentHash(t).value(), before);
}

TEST(BatchTasks, ShardsSplitTheTasksWithoutOverlap) {
    std::set<std::string> seen;
    std::size_t total = 0;
    for (std::uint32_t i = 0; i < 3; ++i) {
        for (int k = 0; k < 100; ++k) {
            const std::string key = "task-" + std::to_string(k);
            if (shardOf(key, 3) == i) {
                EXPECT_TRUE(seen.insert(key).second);
                ++total;
            }
        }
    }
    EXPECT_EQ(total, 100u);
    EXPECT_EQ(parseShard("2/3").value(), (std::pair<std::uint32_t, std::uint32_t>{1, 3}));
    for (const char* bad : {"0/3", "4/3", "1/0", "x/2", "1/2x", "", "1"}) {
        EXPECT_FALSE(parseShard(bad)) << bad;
    }
}

TEST(BatchResults, ATaskIsRecordedWholeAndReplacedWhenRunAgain) {
    Scratch s;
    auto r = BatchResults::open((s.path() / "r.db").string());
    ASSERT_TRUE(r);
    StepResult a{"t", "trace", "h1", "ok", "", "", 0, "{}", 5, ""};
    StepResult b{"t", "simulate", "h1", "failed", "boom, \"quoted\"", "k.py", 3, "{}", 7, ""};
    ASSERT_TRUE(r->recordTask("t", {a, b}));
    EXPECT_EQ(r->finishedTasks({"trace", "simulate"}).value().at("t"), "h1");
    EXPECT_TRUE(r->finishedTasks({"trace", "simulate", "findings"}).value().empty()); // findings never ran
    a.contentHash = "h2";
    ASSERT_TRUE(r->recordTask("t", {a}));
    EXPECT_EQ(r->all()->size(), 1u);
    std::ofstream(s.path() / "not.db") << "some notes";
    EXPECT_FALSE(BatchResults::open((s.path() / "not.db").string()));
    EXPECT_NE(resultsCsv({b}).find("\nt,simulate,h1,failed,\"boom, \"\"quoted\"\"\",k.py,3,"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(resultsJsonLines({b}))["error_line"], 3);
}

TEST(BatchCli, UsageErrorsSayWhatIsWrongAndExitTwo) {
    const std::pair<const char*, const char*> cases[] = {
        {"tasks --out r.db --bogus", "unknown option '--bogus'"},
        {"tasks --out", "--out needs a value"},
        {"tasks --out r.db --out s.db", "--out given twice"},
        {"tasks --out r.db -j 0", "-j takes a number from 1 to 256"},
        {"tasks --out=r.db --timeout 0", "--timeout takes a number from 1 to 86400"},
        {"merge a.db", "give results files and -o ALL.db"},
        {"plan", "give one folder or manifest"},
    };
    for (const auto& [args, message] : cases) {
        const auto run = test::batchCli(args);
        EXPECT_EQ(run.status, 2) << args << "\n" << run.output;
        EXPECT_NE(run.output.find(message), std::string::npos) << args << "\n" << run.output;
        EXPECT_NE(run.output.find("kernellens-cli batch --help"), std::string::npos) << run.output;
    }
}

TEST(BatchCli, FailuresAreResultsAndASecondRunSkipsWhatIsDone) {
    Scratch s;
    test::writeTask(s.path() / "tasks", "good");
    test::writeTask(s.path() / "tasks", "raises", "raise ValueError('broken on purpose')");
    test::writeTask(s.path() / "tasks", "hangs", "while True: pass");
    const fs::path db = s.path() / "r.db";
    const auto run = test::batchCli((s.path() / "tasks").string() + " --out " + db.string() + " -j 2 --timeout 4");
    ASSERT_EQ(run.status, 0) << run.output;
    const auto rows = rowsOf(db);
    ASSERT_EQ(rows.size(), 9u);
    std::map<std::string, std::string> trace;
    for (const StepResult& r : rows) {
        if (r.step == "trace") {
            trace[r.task] = r.status + ": " + r.error + " @" + r.errorFile + ":" + std::to_string(r.errorLine);
        }
    }
    EXPECT_EQ(trace["good"].substr(0, 3), "ok:");
    EXPECT_NE(trace["raises"].find("broken on purpose"), std::string::npos) << trace["raises"];
    EXPECT_NE(trace["raises"].find("kernel.py:8"), std::string::npos) << trace["raises"];
    EXPECT_NE(trace["hangs"].find("time"), std::string::npos) << trace["hangs"]; // its limit, said in words
    EXPECT_NE(run.output.find("3 ran (2 with a failed step)"), std::string::npos) << run.output;

    const auto again = test::batchCli((s.path() / "tasks").string() + " --out " + db.string());
    EXPECT_NE(again.output.find("0 ran"), std::string::npos) << again.output;
    EXPECT_NE(again.output.find("3 up to date"), std::string::npos) << again.output;
}

TEST(BatchCli, AKilledBatchResumesWithEveryTaskExactlyOnce) {
    Scratch s;
    for (int i = 0; i < 6; ++i) {
        test::writeTask(s.path() / "tasks", "slow" + std::to_string(i), "import time; time.sleep(0.6)");
    }
    const fs::path db = s.path() / "r.db";
    const std::string dir = (s.path() / "tasks").string(), out = db.string();
    std::vector<std::string> args{KL_CLI, "batch", dir, "--out", out, "-j", "1"};
    std::vector<char*> argv;
    for (std::string& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, KL_CLI, nullptr, nullptr, argv.data(), environ), 0);
    // Kill it once some tasks are recorded and others are not.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (rowsOf(db).size() < 6 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::size_t recorded = rowsOf(db).size();
    ASSERT_GE(recorded, 6u);
    ASSERT_LT(recorded, 18u) << "the batch finished before it could be killed";
    EXPECT_EQ(recorded % 3, 0u) << "a task is recorded whole or not at all";

    const auto resumed = test::batchCli(dir + " --out " + out + " -j 2");
    ASSERT_EQ(resumed.status, 0) << resumed.output;
    EXPECT_NE(resumed.output.find(std::to_string(recorded / 3) + " up to date"), std::string::npos) << resumed.output;
    const auto rows = rowsOf(db);
    ASSERT_EQ(rows.size(), 18u);
    std::set<std::string> once;
    for (const StepResult& r : rows) {
        EXPECT_TRUE(once.insert(r.task + "/" + r.step).second) << r.task << " " << r.step << " twice";
        EXPECT_EQ(r.status, "ok") << r.task << " " << r.step << ": " << r.error;
    }
}

TEST(BatchCli, AnyShardingMergesToWhatOneRunGives) {
    Scratch s;
    for (int i = 0; i < 5; ++i) {
        test::writeTask(s.path() / "tasks", "t" + std::to_string(i));
    }
    const std::string dir = (s.path() / "tasks").string();
    auto db = [&](const std::string& name) { return (s.path() / name).string(); };
    ASSERT_EQ(test::batchCli(dir + " --out " + db("all.db") + " -j 2").status, 0);
    for (int n : {2, 3}) {
        std::string shards;
        for (int i = 1; i <= n; ++i) {
            const std::string name = fmt::format("s{}of{}.db", i, n);
            ASSERT_EQ(test::batchCli(fmt::format("{} --out {} --shard {}/{}", dir, db(name), i, n)).status, 0);
            shards += " " + db(name);
        }
        const std::string merged = db(fmt::format("merged{}.db", n));
        const auto m = test::batchCli("merge" + shards + " -o " + merged);
        ASSERT_EQ(m.status, 0) << m.output;
        EXPECT_EQ(comparable(rowsOf(merged)), comparable(rowsOf(db("all.db")))) << n << " shards";
    }
    EXPECT_EQ(test::batchCli("merge " + db("all.db") + " -o " + db("all.db")).status, 1); // never over a file
    const auto csv = test::batchCli("export " + db("all.db") + " --csv " + db("all.csv"));
    EXPECT_EQ(csv.status, 0) << csv.output;
    EXPECT_TRUE(fs::file_size(db("all.csv")) > 100);
}

} // namespace
} // namespace kl::core::batch

namespace kl::core::batch {
namespace {

StepResult row(std::string task, std::string step, std::string status, std::string figures = "{}") {
    return StepResult{std::move(task), std::move(step), "h", std::move(status), "", "", 0, std::move(figures), 1, "t"};
}

TEST(BatchTriage, TheTasksThatNeedAHumanMostComeFirst) {
    const std::string twoMajor = R"({"by_severity": {"major": 2, "nit": 1}, "roofline": {"attained_pct": 40}})";
    const std::string oneBlocking = R"({"by_severity": {"blocking": 1}, "roofline": {"attained_pct": 90}})";
    const std::string clean = R"({"by_severity": {"nit": 1}, "roofline": {"attained_pct": 95}})";
    const std::string cleanButSlow = R"({"by_severity": {"nit": 1}, "roofline": {"attained_pct": 10}})";
    const std::vector<StepResult> rows{
        row("clean", "trace", "ok"),      row("clean", "findings", "ok", clean),
        row("slow", "trace", "ok"),       row("slow", "findings", "ok", cleanButSlow),
        row("majors", "trace", "ok"),     row("majors", "findings", "ok", twoMajor),
        row("blocking", "trace", "ok"),   row("blocking", "findings", "ok", oneBlocking),
        row("broken", "trace", "failed"), row("broken", "findings", "skipped"),
        row("wrong", "trace", "ok"),      row("wrong", "numerics", "failed"),
        row("unchecked", "trace", "ok"),  row("unchecked", "numerics", "skipped"),
    };
    const auto queue = triage(rows, "/root");
    std::vector<std::string> order;
    for (const TriagedTask& t : queue) {
        order.push_back(t.key);
    }
    EXPECT_EQ(order, (std::vector<std::string>{"wrong", "broken", "blocking", "majors", "slow", "clean", "unchecked"}));
    EXPECT_EQ(queue[0].folder, std::filesystem::path("/root/wrong"));
    EXPECT_NE(queue[3].why.find("2 major"), std::string::npos) << queue[3].why;
    EXPECT_FALSE(queue.back().failed) << "numerics that did not run is not a failure";
    const auto failedOnly = triage(rows, "/root", "failed");
    ASSERT_EQ(failedOnly.size(), 2u);
    EXPECT_EQ(failedOnly[0].key, "wrong");
    EXPECT_EQ(triage(rows, "/root", "ok").size(), 5u);
}

TEST(BatchCli, AReviewFromResultsQueuesTheFailedTaskFirst) {
    test::Scratch s;
    test::writeTask(s.path() / "tasks", "a_fine");
    test::writeTask(s.path() / "tasks", "b_raises", "raise ValueError('nope')");
    const auto db = (s.path() / "r.db").string(), review = (s.path() / "q.klreview").string();
    ASSERT_EQ(test::batchCli((s.path() / "tasks").string() + " --out " + db).status, 0);
    const auto made = test::batchCli("review " + db + " -o " + review);
    ASSERT_EQ(made.status, 0) << made.output;
    auto file = ReviewFile::open(review);
    ASSERT_TRUE(file);
    const auto tasks = file->tasks().list().value();
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[0].folder, "b_raises");
    EXPECT_EQ(test::batchCli("review " + db + " -o " + review).status, 1); // never over a review
}

} // namespace
} // namespace kl::core::batch
