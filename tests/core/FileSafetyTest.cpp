#include "TestSupport.h"

#include "db/Database.h"
#include "review/ReviewSchema.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>

namespace kl::core {
namespace {

/// Opens `path`, expects a refusal whose message contains `expected` and names the path, and checks
/// that the file is byte-identical afterwards.
std::set<std::string> listFolder(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        names.insert(entry.path().filename().string());
    }
    return names;
}

void expectRefused(const std::string& path, const std::string& expected, ErrorCode code) {
    const std::string before = test::readBytes(path);
    const auto folder = std::filesystem::path(path).parent_path();
    const auto filesBefore = listFolder(folder);
    auto file = ReviewFile::open(path);
    ASSERT_FALSE(file) << "opened " << path;
    EXPECT_EQ(file.error().code, code) << formatError(file.error());
    EXPECT_NE(file.error().message.find(expected), std::string::npos) << formatError(file.error());
    EXPECT_EQ(file.error().file, path);
    EXPECT_NE(formatError(file.error()).find(path), std::string::npos);
    EXPECT_EQ(test::readBytes(path), before) << "the file was changed";
    EXPECT_EQ(listFolder(folder), filesBefore) << "files appeared or vanished beside it";
}

TEST(FileSafety, MissingFile) {
    test::TempDir dir;
    auto file = ReviewFile::open(dir.file("absent.klreview"));
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error().code, ErrorCode::NotFound);
    EXPECT_FALSE(std::filesystem::exists(dir.file("absent.klreview")));
}

TEST(FileSafety, TextAndEmptyFilesAreNotReviews) {
    test::TempDir dir;
    test::writeBytes(dir.file("notes.klreview"), "these are my notes, please do not touch\n");
    expectRefused(dir.file("notes.klreview"), "not an SQLite database", ErrorCode::Parse);
    test::writeBytes(dir.file("empty.klreview"), "");
    expectRefused(dir.file("empty.klreview"), "the file is empty", ErrorCode::Parse);
    test::writeBytes(dir.file("short.klreview"), std::string("SQLite format 3\0", 16));
    expectRefused(dir.file("short.klreview"), "not an SQLite database", ErrorCode::Parse);
}

TEST(FileSafety, ForeignSqliteDatabaseIsNeverWritten) {
    test::TempDir dir;
    const std::string path = dir.file("other.db");
    {
        auto db = Database::open(path, Database::OpenMode::Create);
        ASSERT_TRUE(db);
        ASSERT_TRUE(db->exec(
            "CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts VALUES (1, 'x');"));
    }
    expectRefused(path, "application id 0x00000000", ErrorCode::Parse);
    auto db = Database::open(path, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM sqlite_schema"), 1); // no tables of ours appeared
}

TEST(FileSafety, OurApplicationIdWithoutMetaIsRefused) {
    test::TempDir dir;
    const std::string path = dir.file("impostor.klreview");
    {
        auto db = Database::open(path, Database::OpenMode::Create);
        ASSERT_TRUE(db);
        ASSERT_TRUE(db->exec("PRAGMA application_id = 1263293014; PRAGMA user_version = 2; CREATE TABLE t(x);"));
    }
    expectRefused(path, "meta table", ErrorCode::Parse);
}

TEST(FileSafety, OurApplicationIdWithAnotherMagicIsRefused) {
    // Another program that borrowed our application id and a meta table, but not our magic text.
    test::TempDir dir;
    const std::string path = dir.file("borrowed.klreview");
    { auto file = test::makeReview(path); }
    {
        auto db = Database::open(path, Database::OpenMode::ReadWrite);
        ASSERT_TRUE(db);
        ASSERT_TRUE(db->exec("UPDATE meta SET value = 'Some other tool' WHERE key = 'magic'"));
    }
    expectRefused(path, "meta table", ErrorCode::Parse);
}

TEST(FileSafety, NewerSchemaIsRefusedUntouched) {
    test::TempDir dir;
    const std::string path = dir.file("future.klreview");
    { auto file = test::makeReview(path); }
    {
        auto db = Database::open(path, Database::OpenMode::ReadWrite);
        ASSERT_TRUE(db);
        ASSERT_TRUE(db->exec(fmt::format("PRAGMA user_version = {}", ReviewSchema::kCurrentVersion + 1)));
        ASSERT_TRUE(db->exec("CREATE TABLE from_the_future(x)"));
    }
    expectRefused(path, "newer than this KernelLens", ErrorCode::Unsupported);
}

TEST(FileSafety, CorruptedFileIsRefusedUntouched) {
    test::TempDir dir;
    const std::string path = dir.file("broken.klreview");
    {
        auto file = test::makeReview(path);
        auto task = file.tasks().add("t", "T", {{"k.py", "nki", std::string(20000, 'k')}});
        ASSERT_TRUE(task);
    }
    std::string bytes = test::readBytes(path);
    ASSERT_GT(bytes.size(), 4096u * 4);
    // Scribble over the b-tree pages after the header page: the header still looks like a review.
    for (std::size_t i = 4096; i < bytes.size(); i += 7) {
        bytes[i] = static_cast<char>(0xA5 ^ (i & 0xFF));
    }
    test::writeBytes(path, bytes);
    expectRefused(path, "corrupted", ErrorCode::Parse);
}

TEST(FileSafety, TruncatedFileIsRefused) {
    test::TempDir dir;
    const std::string path = dir.file("cut.klreview");
    {
        auto file = test::makeReview(path);
        ASSERT_TRUE(file.tasks().add("t", "T", {{"k.py", "nki", std::string(50000, 'k')}}));
    }
    std::string bytes = test::readBytes(path);
    test::writeBytes(path, bytes.substr(0, bytes.size() / 2));
    expectRefused(path, "corrupted", ErrorCode::Parse);
}

} // namespace
} // namespace kl::core
