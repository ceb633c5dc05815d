#include "TestSupport.h"

#include "db/Database.h"
#include "review/ReviewSchema.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace kl::core {
namespace {

const std::string kStoredV1 = std::string(KL_TEST_DATA_DIR) + "/review-v1.klreview";
const std::string kStoredV2 = std::string(KL_TEST_DATA_DIR) + "/review-v2.klreview";

TEST(Migration, StoredVersion1FileIsVersion1) {
    auto db = Database::open(kStoredV1, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), 1);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'reply'"), 0);
}

TEST(Migration, Version1To2KeepsEverything) {
    test::TempDir dir;
    const std::string path = dir.file("old.klreview");
    std::filesystem::copy_file(kStoredV1, path);
    {
        auto file = ReviewFile::open(path);
        ASSERT_TRUE(file) << formatError(file.error());
        EXPECT_EQ(file->openedVersion(), 1);
        EXPECT_EQ(file->rubric().id, "mini-v1");
        auto tasks = file->tasks().list();
        ASSERT_TRUE(tasks);
        ASSERT_EQ(tasks->size(), 2u);
        EXPECT_EQ(tasks->at(0).folder, "matmul_tiled");
        EXPECT_EQ(tasks->at(0).status, TaskStatus::InProgress);
        EXPECT_EQ(tasks->at(0).secondsSpent, 0); // new column, default
        EXPECT_EQ(file->tasks().files(1)->size(), 3u);
        auto notes = file->annotations().list();
        ASSERT_TRUE(notes);
        ASSERT_EQ(notes->size(), 4u);
        EXPECT_EQ(notes->at(0).anchor, Anchor::timeRange(1000, 5000));
        EXPECT_EQ(notes->at(0).score, 2);
        EXPECT_EQ(notes->at(1).anchor, Anchor::instruction(42));
        EXPECT_TRUE(notes->at(1).resolved);
        EXPECT_EQ(notes->at(2).anchor, Anchor::nkiLines(3, 7));
        EXPECT_EQ(notes->at(3).anchor, Anchor::cudaLines(10, 12));
        EXPECT_EQ(notes->at(3).createdAt, "2026-01-15T09:15:00.000Z");
        EXPECT_EQ(file->scores().list(1)->size(), 2u);
        EXPECT_EQ(file->links().list(1)->size(), 1u);
        EXPECT_EQ(file->runs().list(1)->front().label, "baseline");
        // What version 2 added works on the migrated file.
        ASSERT_TRUE(file->annotations().addReply(1, "bob", "fixed in v2"));
        ASSERT_TRUE(file->tasks().addSecondsSpent(1, 42));
        auto card = file->scorecard(1);
        ASSERT_TRUE(card);
        EXPECT_EQ(card->result, ScorecardResult::Pass);
        EXPECT_EQ(file->scorecard(2)->result, ScorecardResult::Fail); // unresolved blocking annotation
        // New annotations do not reuse ids the v1 file used.
        Annotation a = notes->at(0);
        auto created = file->annotations().create(a);
        ASSERT_TRUE(created);
        EXPECT_EQ(created->id, 5);
    }
    auto db = Database::open(path, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), ReviewSchema::kCurrentVersion);
    auto meta = db->prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    ASSERT_TRUE(meta && *meta->step());
    EXPECT_EQ(meta->text(0), std::to_string(ReviewSchema::kCurrentVersion));
    EXPECT_EQ(*db->queryInt("SELECT seconds_spent FROM task WHERE id = 1"), 42);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM reply"), 1);
    // Reopening a migrated file runs no migration.
    auto again = ReviewFile::open(path);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->openedVersion(), ReviewSchema::kCurrentVersion);
}

TEST(Migration, MigratedSchemaMatchesFreshSchema) {
    test::TempDir dir;
    const std::string oldPath = dir.file("old.klreview");
    std::filesystem::copy_file(kStoredV1, oldPath);
    { ASSERT_TRUE(ReviewFile::open(oldPath)); }
    { auto fresh = test::makeReview(dir.file("new.klreview")); }
    auto columns = [](const std::string& path) {
        auto db = Database::open(path, Database::OpenMode::ReadOnly);
        std::string out;
        auto stmt = db->prepare("SELECT m.name, p.name, p.type, p.\"notnull\", p.pk FROM sqlite_schema m "
                                "JOIN pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid");
        while (*stmt->step()) {
            out += fmt::format("{}.{} {} {} {}\n", stmt->text(0), stmt->text(1), stmt->text(2), stmt->int64(3),
                               stmt->int64(4));
        }
        return out;
    };
    EXPECT_EQ(columns(oldPath), columns(dir.file("new.klreview")));
}

TEST(Migration, StoredVersion2FileTo3KeepsRepliesAndTimeAndAddsDismissals) {
    test::TempDir dir;
    const std::string path = dir.file("v2.klreview");
    std::filesystem::copy_file(kStoredV2, path);
    {
        auto db = Database::open(path, Database::OpenMode::ReadOnly);
        ASSERT_TRUE(db);
        ASSERT_EQ(*db->queryInt("PRAGMA user_version"), 2);
        ASSERT_EQ(*db->queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'finding_dismissal'"), 0);
    }
    {
        auto file = ReviewFile::open(path);
        ASSERT_TRUE(file) << formatError(file.error());
        EXPECT_EQ(file->openedVersion(), 2);
        EXPECT_EQ(file->tasks().get(1)->secondsSpent, 90);
        const auto replies = file->annotations().replies(1);
        ASSERT_TRUE(replies);
        ASSERT_EQ(replies->size(), 1u);
        EXPECT_EQ(replies->front().text, "agreed, hoist the load");
        EXPECT_EQ(file->annotations().list()->size(), 4u);
        FindingDismissal d{0, 1, "roofline", "roofline", "Roofline: memory-bound", "expected", "bob", {}};
        ASSERT_TRUE(file->findingDismissals().add(d));
    }
    auto again = ReviewFile::open(path);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->openedVersion(), ReviewSchema::kCurrentVersion);
    EXPECT_EQ(again->findingDismissals().list(1)->front().reason, "expected");
}

TEST(Migration, Version2To3AddsFindingDismissalsAndKeepsAnnotations) {
    // A version 2 file is a current one without version 3's and 4's tables: make one by taking them away.
    test::TempDir dir;
    const std::string path = dir.file("v2.klreview");
    std::int64_t taskId = 0;
    {
        auto file = test::makeReview(path);
        auto task = file.tasks().add("t", "T", {{"kernel.py", "nki", "x = 1\n"}});
        ASSERT_TRUE(task);
        taskId = task->id;
        Annotation a;
        a.taskId = taskId;
        a.anchor = Anchor::nkiLines(1, 1);
        a.text = "kept";
        a.author = "alice";
        ASSERT_TRUE(file.annotations().create(a));
    }
    {
        auto db = Database::open(path, Database::OpenMode::ReadWrite);
        ASSERT_TRUE(db);
        ASSERT_TRUE(db->exec("DROP TABLE finding_dismissal; DROP TABLE reviewer_score; DROP TABLE adjudication; "
                             "DROP TABLE numerics_run; PRAGMA user_version = 2; "
                             "UPDATE meta SET value = '2' WHERE key = 'schema_version';"));
    }
    {
        auto file = ReviewFile::open(path);
        ASSERT_TRUE(file) << formatError(file.error());
        EXPECT_EQ(file->openedVersion(), 2);
        EXPECT_EQ(file->annotations().list()->size(), 1u);
        FindingDismissal d;
        d.taskId = taskId;
        d.findingKey = "exposed-dma";
        d.rule = "exposed-dma";
        d.title = "Exposed DMA";
        d.reason = "the loads are the reference's, not the migration's";
        d.author = "alice";
        ASSERT_TRUE(file->findingDismissals().add(d));
    }
    auto db = Database::open(path, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), ReviewSchema::kCurrentVersion);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM finding_dismissal"), 1);
}

TEST(Migration, FailedStepLeavesTheOldVersion) {
    // A v1 file that already has a column the v1 -> v2 step adds: the step fails half-way and its
    // transaction must leave neither the reply table nor a new version behind.
    test::TempDir dir;
    const std::string path = dir.file("odd.klreview");
    std::filesystem::copy_file(kStoredV1, path);
    {
        auto db = Database::open(path, Database::OpenMode::ReadWrite);
        ASSERT_TRUE(db);
        ASSERT_TRUE(db->exec("ALTER TABLE task ADD COLUMN seconds_spent INTEGER"));
    }
    auto file = ReviewFile::open(path);
    ASSERT_FALSE(file);
    EXPECT_NE(file.error().message.find("migrating review file to schema version 2"), std::string::npos)
        << formatError(file.error());
    auto db = Database::open(path, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), 1);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'reply'"), 0);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM annotation"), 4);
}

} // namespace
} // namespace kl::core
