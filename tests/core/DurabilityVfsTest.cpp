// The crash-safety promise of docs/review-file.md ("Durability": a committed edit is on disk when the call
// returns; a failing disk is an error, never a silent loss) checked below SQLite, through a VFS that wraps the
// default one: a committed edit syncs the file, and a sync or write that fails is reported and loses nothing
// that was committed before it.
#include "ShimVfs.h"
#include "TestSupport.h"

#include "db/Database.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

using test::ShimVfs;
using test::TempDir;

Annotation note(std::int64_t task, const std::string& text) {
    Annotation a;
    a.taskId = task;
    a.anchor = Anchor::timeRange(0, 10);
    a.severity = Severity::Minor;
    a.author = "alice";
    a.text = text;
    return a;
}

/// The texts of every annotation in the file at `path`, read through a fresh connection (default VFS).
std::vector<std::string> textsIn(const std::string& path) {
    auto file = ReviewFile::open(path);
    EXPECT_TRUE(file) << (file ? "" : formatError(file.error()));
    std::vector<std::string> texts;
    if (file) {
        const auto annotations = file->annotations().list();
        EXPECT_TRUE(annotations);
        for (const Annotation& a : annotations ? *annotations : std::vector<Annotation>{}) {
            texts.push_back(a.text);
        }
        EXPECT_EQ(*file->database().queryInt("SELECT count(*) FROM pragma_quick_check WHERE quick_check != 'ok'"), 0);
    }
    return texts;
}

TEST(Durability, ACommittedEditSyncsTheFileBeforeTheCallReturns) {
    TempDir dir;
    const std::string path = dir.file("r.klreview");
    ShimVfs vfs;
    {
        auto file = test::makeReview(path);
        const Task task = *file.tasks().add("t", "T", {});
        vfs.resetCounts();
        ASSERT_TRUE(file.annotations().create(note(task.id, "first")));
        // synchronous = FULL in WAL mode: the WAL is synced at every commit (synchronous = NORMAL or OFF would
        // leave the commit in the page cache until a checkpoint, and a power cut could take it back).
        EXPECT_GE(vfs.syncs(), 1) << "an edit returned without syncing the review file";
        const int afterOne = vfs.syncs();
        ASSERT_TRUE(file.annotations().create(note(task.id, "second")));
        EXPECT_GT(vfs.syncs(), afterOne) << "every edit syncs, not only the first";
    }
    EXPECT_EQ(textsIn(path), (std::vector<std::string>{"first", "second"}));
}

class FailingDisk : public ::testing::TestWithParam<ShimVfs::Fail> {};

TEST_P(FailingDisk, TheEditIsAnErrorAndWhatWasCommittedStays) {
    TempDir dir;
    const std::string path = dir.file("r.klreview");
    {
        ShimVfs vfs;
        {
            auto file = test::makeReview(path);
            const Task task = *file.tasks().add("t", "T", {});
            ASSERT_TRUE(file.annotations().create(note(task.id, "committed")));
            vfs.arm(GetParam());
            auto failed = file.annotations().create(note(task.id, "on a failing disk"));
            ASSERT_FALSE(failed) << "an edit the disk refused was reported as saved";
            EXPECT_EQ(failed.error().code, ErrorCode::Database);
            EXPECT_NE(failed.error().message.find("I/O"), std::string::npos) << failed.error().message;
            EXPECT_GE(vfs.failures(), 1);
            vfs.arm(ShimVfs::Fail::Nothing);
        }
    }
    const std::vector<std::string> texts = textsIn(path);
    ASSERT_FALSE(texts.empty());
    EXPECT_EQ(texts.front(), "committed");
    if (GetParam() == ShimVfs::Fail::Write) {
        // Nothing of the refused edit reached the file. (A failed sync cannot promise that: the WAL frames
        // were written, only not forced to the platter, so the edit may or may not be there after a reopen.)
        EXPECT_EQ(texts.size(), 1u);
    }
}

INSTANTIATE_TEST_SUITE_P(Durability, FailingDisk, ::testing::Values(ShimVfs::Fail::Sync, ShimVfs::Fail::Write),
                         [](const auto& info) { return info.param == ShimVfs::Fail::Sync ? "Sync" : "Write"; });

} // namespace
} // namespace kl::core
