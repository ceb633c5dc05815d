#include "TestSupport.h"

#include "db/Database.h"
#include "review/ReviewSchema.h"

#include <gtest/gtest.h>

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kl::core {
namespace {

using test::TempDir;

Annotation note(std::int64_t task, Anchor anchor, Severity severity, std::string item, std::string author) {
    Annotation a;
    a.taskId = task;
    a.anchor = anchor;
    a.severity = severity;
    a.rubricItem = std::move(item);
    a.author = std::move(author);
    a.text = "text";
    return a;
}

TEST(ReviewFile, CreateSetsApplicationIdVersionAndWal) {
    TempDir dir;
    { auto file = test::makeReview(dir.file("r.klreview")); }
    auto db = Database::open(dir.file("r.klreview"), Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA application_id"), ReviewSchema::kApplicationId);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), ReviewSchema::kCurrentVersion);
    auto mode = db->prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode && *mode->step());
    EXPECT_EQ(mode->text(0), "wal");
    auto magic = db->prepare("SELECT value FROM meta WHERE key = 'magic'");
    ASSERT_TRUE(magic && *magic->step());
    EXPECT_EQ(magic->text(0), ReviewSchema::kMagic);
}

TEST(ReviewFile, EveryConnectionThatEditsWaitsForTheDisk) {
    // The crash-safety promise (docs/review-file.md, "Durability") rests on WAL with synchronous = FULL on the
    // connection that writes: asserted on a created and on a reopened file, not only on the file's header.
    TempDir dir;
    auto created = test::makeReview(dir.file("r.klreview"));
    EXPECT_EQ(*created.database().queryInt("PRAGMA synchronous"), 2); // 2 = FULL
    auto reopened = ReviewFile::open(dir.file("r.klreview"));
    ASSERT_TRUE(reopened);
    EXPECT_EQ(*reopened->database().queryInt("PRAGMA synchronous"), 2);
    auto mode = reopened->database().prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode && *mode->step());
    EXPECT_EQ(mode->text(0), "wal");
    EXPECT_EQ(*reopened->database().queryInt("PRAGMA foreign_keys"), 1);
}

TEST(ReviewFile, CreateRefusesExistingFileAndBrokenRubric) {
    TempDir dir;
    test::writeBytes(dir.file("x.klreview"), "precious");
    auto again = ReviewFile::create(dir.file("x.klreview"), {test::defaultRubricJson(), "r.json", ""});
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("already exists"), std::string::npos);
    EXPECT_EQ(test::readBytes(dir.file("x.klreview")), "precious");

    auto broken = ReviewFile::create(dir.file("y.klreview"), {"{\"format\": 1}", "bad.json", ""});
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().code, ErrorCode::Parse);
    EXPECT_FALSE(std::filesystem::exists(dir.file("y.klreview")));
}

TEST(ReviewFile, TaskFromFolderIsSelfContained) {
    TempDir dir;
    const std::string folder = test::makeTaskFolder(dir.path(), "matmul_tiled");
    {
        auto file = test::makeReview(dir.file("r.klreview"));
        auto task = file.tasks().addFromFolder(folder);
        ASSERT_TRUE(task) << formatError(task.error());
        EXPECT_EQ(task->folder, "matmul_tiled");
        EXPECT_EQ(task->title, "Tiled matmul");
        EXPECT_EQ(task->status, TaskStatus::Todo);
        auto dup = file.tasks().addFromFolder(folder);
        ASSERT_FALSE(dup);
        EXPECT_NE(dup.error().message.find("already has a task"), std::string::npos);
        ASSERT_TRUE(file.tasks().setStatus(task->id, TaskStatus::InProgress));
        ASSERT_TRUE(file.tasks().addSecondsSpent(task->id, 90));
        ASSERT_TRUE(file.tasks().addSecondsSpent(task->id, 30));
        EXPECT_FALSE(file.tasks().setStatus(999, TaskStatus::Done));
    }
    const std::string kernel = test::readBytes(folder + "/kernel.py");
    std::filesystem::remove_all(folder); // the review must not need the folder any more
    auto file = ReviewFile::open(dir.file("r.klreview"));
    ASSERT_TRUE(file) << formatError(file.error());
    auto tasks = file->tasks().list();
    ASSERT_TRUE(tasks);
    ASSERT_EQ(tasks->size(), 1u);
    EXPECT_EQ(tasks->front().status, TaskStatus::InProgress);
    EXPECT_EQ(tasks->front().secondsSpent, 120);
    auto files = file->tasks().files(tasks->front().id);
    ASSERT_TRUE(files);
    ASSERT_EQ(files->size(), 3u);
    bool sawKernel = false;
    for (const TaskFile& f : *files) {
        if (f.role == "nki") {
            sawKernel = true;
            EXPECT_EQ(f.content, kernel);
        }
    }
    EXPECT_TRUE(sawKernel);
}

TEST(ReviewFile, TaskFolderErrorsNameTheFile) {
    TempDir dir;
    auto file = test::makeReview(dir.file("r.klreview"));
    auto missing = file.tasks().addFromFolder(dir.file("nope"));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().file.find("task.json"), std::string::npos);
    std::filesystem::create_directories(dir.path() / "bad");
    test::writeBytes(dir.file("bad/task.json"), "{\"format\": 1, \"kernel_file\": \"gone.py\"}");
    auto gone = file.tasks().addFromFolder(dir.file("bad"));
    ASSERT_FALSE(gone);
    EXPECT_NE(gone.error().message.find("gone.py"), std::string::npos);
    auto tasks = file.tasks().list();
    EXPECT_TRUE(tasks && tasks->empty()); // nothing half-added
}

TEST(ReviewFile, AnnotationFiltersAndReplies) {
    TempDir dir;
    auto file = test::makeReview(dir.file("r.klreview"));
    auto t1 = file.tasks().add("a", "A", {});
    auto t2 = file.tasks().add("b", "B", {});
    ASSERT_TRUE(t1 && t2);
    auto repo = file.annotations();
    ASSERT_TRUE(repo.create(note(t1->id, Anchor::timeRange(0, 10), Severity::Blocking, "perf.overlap", "alice")));
    ASSERT_TRUE(repo.create(note(t1->id, Anchor::instruction(3), Severity::Minor, "hw.tile_shapes", "bob")));
    auto third = repo.create(note(t2->id, Anchor::nkiLines(1, 2), Severity::Minor, "perf.overlap", "alice"));
    ASSERT_TRUE(third);
    third->resolved = true;
    ASSERT_TRUE(repo.update(*third));

    auto count = [&](AnnotationFilter f) { return repo.list(f).value().size(); };
    EXPECT_EQ(count({}), 3u);
    EXPECT_EQ(count({.taskId = t1->id}), 2u);
    EXPECT_EQ(count({.rubricItem = "perf.overlap"}), 2u);
    EXPECT_EQ(count({.severity = Severity::Minor}), 2u);
    EXPECT_EQ(count({.resolved = false}), 2u);
    EXPECT_EQ(count({.author = "bob"}), 1u);
    EXPECT_EQ(count({.taskId = t2->id, .resolved = true}), 1u);
    EXPECT_EQ(count({.author = "nobody"}), 0u);

    auto reply = repo.addReply(third->id, "bob", "agreed");
    ASSERT_TRUE(reply);
    ASSERT_TRUE(repo.addReply(third->id, "carol", "me too"));
    auto replies = repo.replies(third->id);
    ASSERT_TRUE(replies);
    ASSERT_EQ(replies->size(), 2u);
    EXPECT_EQ(replies->front().text, "agreed");
    EXPECT_FALSE(repo.addReply(12345, "bob", "to nothing"));
    ASSERT_TRUE(repo.removeReply(reply->id));
    EXPECT_EQ(repo.replies(third->id)->size(), 1u);
    // Authors become reviewers.
    auto reviewers = file.reviewers().list();
    ASSERT_TRUE(reviewers);
    EXPECT_EQ(reviewers->size(), 3u); // alice (creator), bob, carol
    ASSERT_TRUE(repo.remove(third->id));
    EXPECT_FALSE(repo.get(third->id));
    EXPECT_FALSE(repo.remove(third->id));
}

TEST(ReviewFile, SaveCopyWritesAWholeReviewAndLeavesTheOriginal) {
    TempDir dir;
    auto file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().add("a", "A", {});
    ASSERT_TRUE(task);
    ASSERT_TRUE(
        file.annotations().create(note(task->id, Anchor::timeRange(0, 10), Severity::Major, "perf.overlap", "al")));

    ASSERT_TRUE(file.saveCopy(dir.file("copy.klreview")));
    auto copy = ReviewFile::open(dir.file("copy.klreview"));
    ASSERT_TRUE(copy) << formatError(copy.error());
    EXPECT_FALSE(copy->readOnly());
    EXPECT_EQ(copy->tasks().list().value().size(), 1u);
    EXPECT_EQ(copy->annotations().list({}).value().size(), 1u);
    // The copy is its own file: editing it leaves the original as it was.
    ASSERT_TRUE(copy->tasks().add("b", "B", {}));
    EXPECT_EQ(file.tasks().list().value().size(), 1u);

    auto again = file.saveCopy(dir.file("copy.klreview"));
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("already exists"), std::string::npos);
    auto nowhere = file.saveCopy(dir.file("no/such/folder/c.klreview"));
    ASSERT_FALSE(nowhere);
    EXPECT_EQ(nowhere.error().file, dir.file("no/such/folder/c.klreview"));
}

TEST(ReviewFile, AnnotationValidation) {
    TempDir dir;
    auto file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().add("a", "A", {});
    ASSERT_TRUE(task);
    auto repo = file.annotations();
    auto a = note(task->id, Anchor::timeRange(0, 1), Severity::Minor, "no.such.item", "alice");
    EXPECT_NE(repo.create(a).error().message.find("no.such.item"), std::string::npos);
    a.rubricItem = "perf.overlap";
    a.score = 6;
    EXPECT_NE(repo.create(a).error().message.find("outside the scale"), std::string::npos);
    a.score = 5;
    EXPECT_TRUE(repo.create(a));
    a.rubricItem.clear();
    EXPECT_FALSE(repo.create(a)); // a score needs an item
    a.score.reset();
    a.taskId = 77;
    EXPECT_EQ(repo.create(a).error().code, ErrorCode::NotFound);
    a.taskId = task->id;
    a.author.clear();
    EXPECT_FALSE(repo.create(a));
}

TEST(ReviewFile, ScoresLinksRuns) {
    TempDir dir;
    const std::string path = dir.file("r.klreview");
    std::int64_t taskId = 0;
    {
        auto file = test::makeReview(path);
        auto task = file.tasks().add("a", "A", {});
        ASSERT_TRUE(task);
        taskId = task->id;
        ASSERT_TRUE(file.scores().set(taskId, "perf.overlap", 4, "alice"));
        ASSERT_TRUE(file.scores().set(taskId, "perf.overlap", 5, "bob")); // replaces
        ASSERT_TRUE(file.scores().set(taskId, "num.accumulation", 0, "bob"));
        EXPECT_FALSE(file.scores().set(taskId, "num.accumulation", 2, "bob"));
        EXPECT_FALSE(file.scores().set(taskId, "perf.overlap", 0, "bob"));
        EXPECT_FALSE(file.scores().set(taskId, "nope", 1, "bob"));
        EXPECT_FALSE(file.scores().set(99, "perf.overlap", 1, "bob"));
        LineLink link{0, taskId, 3, 5, 10, 14, LinkOrigin::Suggestion, LinkState::Proposed, {}};
        auto saved = file.links().add(link);
        ASSERT_TRUE(saved);
        ASSERT_TRUE(file.links().setState(saved->id, LinkState::Accepted));
        link.cudaLast = 1;
        EXPECT_FALSE(file.links().add(link));
        ASSERT_TRUE(file.runs().add({0, taskId, "baseline", R"({"name":"trn1"})", R"({"total_ns":5})", {}}));
        EXPECT_FALSE(file.runs().add({0, 999, "x", "{}", "{}", {}}));
    }
    auto file = ReviewFile::open(path);
    ASSERT_TRUE(file);
    auto scores = file->scores().list(taskId);
    ASSERT_TRUE(scores);
    ASSERT_EQ(scores->size(), 2u);
    EXPECT_EQ((*scores)[1].itemId, "perf.overlap");
    EXPECT_EQ((*scores)[1].value, 5);
    EXPECT_EQ((*scores)[1].reviewer, "bob");
    auto links = file->links().list(taskId);
    ASSERT_TRUE(links && links->size() == 1);
    EXPECT_EQ(links->front().state, LinkState::Accepted);
    EXPECT_EQ(links->front().origin, LinkOrigin::Suggestion);
    EXPECT_EQ(links->front().nkiLast, 14);
    auto runs = file->runs().list(taskId);
    ASSERT_TRUE(runs && runs->size() == 1);
    EXPECT_EQ(runs->front().summaryJson, R"({"total_ns":5})");
    // Deleting the task cascades to everything it owns.
    ASSERT_TRUE(file->tasks().remove(taskId));
    EXPECT_TRUE(file->scores().list(taskId)->empty());
    EXPECT_TRUE(file->links().list(taskId)->empty());
    EXPECT_TRUE(file->runs().list(taskId)->empty());
}

TEST(ReviewFile, TwoConnectionsSeeEachOthersEdits) {
    // The GUI and a CLI run may have the same review open; WAL lets both read while one writes.
    TempDir dir;
    const std::string path = dir.file("r.klreview");
    auto first = test::makeReview(path);
    auto task = first.tasks().add("t", "T", {});
    ASSERT_TRUE(task);
    auto second = ReviewFile::open(path);
    ASSERT_TRUE(second) << formatError(second.error());
    for (int i = 0; i < 10; ++i) {
        ReviewFile& writer = i % 2 == 0 ? first : *second;
        ASSERT_TRUE(writer.annotations().create(note(task->id, Anchor::instruction(i), Severity::Nit, "", "alice")));
    }
    EXPECT_EQ(first.annotations().list()->size(), 10u);
    EXPECT_EQ(second->annotations().list()->size(), 10u);
}

/// The read-only checks of a review nobody may write; 0 when all hold, else the number of the first that failed
/// (run in a child that has dropped to nobody when the test runs as root, who can write to any file).
int readOnlyChecks(const std::string& path) {
    auto file = ReviewFile::open(path);
    if (!file) {
        return 2;
    }
    if (!file->readOnly()) {
        return 3;
    }
    if (file->readOnlyReason().find("not writable") == std::string::npos) {
        return 4;
    }
    if (!file->tasks().list()) {
        return 5;
    }
    return file->tasks().add("t", "T", {}) ? 6 : 0;
}

TEST(ReviewFile, ReadOnlyFileOpensReadOnlyWithReason) {
    TempDir dir;
    const std::string path = dir.file("r.klreview");
    { auto file = test::makeReview(path); }
    namespace fs = std::filesystem;
    fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    if (::geteuid() != 0) {
        EXPECT_EQ(readOnlyChecks(path), 0);
        return;
    }
    // Root writes to read-only files: the checks run in a child that drops to nobody (uid 65534), so the test
    // holds where CI runs as root instead of being skipped there. Nobody needs to reach the file.
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
    constexpr int kCannotDrop = 100;
    std::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        constexpr uid_t kNobody = 65534;
        if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
            ::_exit(kCannotDrop);
        }
        ::_exit(readOnlyChecks(path));
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died";
    ASSERT_NE(WEXITSTATUS(status), kCannotDrop) << "root could not drop to nobody";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "check " << WEXITSTATUS(status) << " of readOnlyChecks failed as nobody";
}

} // namespace
} // namespace kl::core
