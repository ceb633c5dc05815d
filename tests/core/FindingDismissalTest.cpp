// The finding_dismissal table and its undoable commands: a reason is required, one dismissal per finding and task,
// undo/redo of Dismiss and Restore keep the row exactly, and a dismissal is still there after reopening.
#include "TestSupport.h"

#include "review/EditHistory.h"
#include "review/FindingDismissalCommands.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

class FindingDismissalTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_file = std::make_unique<ReviewFile>(test::makeReview(m_dir.file("r.klreview")));
        auto task = m_file->tasks().add("t", "T", {});
        ASSERT_TRUE(task);
        m_taskId = task->id;
    }
    FindingDismissal dismissal(std::string key, std::string reason) const {
        FindingDismissal d;
        d.taskId = m_taskId;
        d.findingKey = std::move(key);
        d.rule = "dma-small-transfers";
        d.title = "Small DMA transfers";
        d.reason = std::move(reason);
        d.author = "alice";
        return d;
    }
    std::vector<FindingDismissal> listed() { return m_file->findingDismissals().list(m_taskId).value(); }

    test::TempDir m_dir;
    std::unique_ptr<ReviewFile> m_file;
    std::int64_t m_taskId = 0;
};

TEST_F(FindingDismissalTest, AReasonIsRequiredAndAFindingIsDismissedOnce) {
    EXPECT_FALSE(m_file->findingDismissals().add(dismissal("dma-small-transfers", "")));
    ASSERT_TRUE(m_file->findingDismissals().add(dismissal("dma-small-transfers", "the task fixes the tile size")));
    EXPECT_FALSE(m_file->findingDismissals().add(dismissal("dma-small-transfers", "again")));
    ASSERT_TRUE(m_file->findingDismissals().add(dismissal("dma-small-transfers#2", "second one")));
    const auto rows = listed();
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].reason, "the task fixes the tile size");
    EXPECT_FALSE(rows[0].createdAt.empty());
}

TEST_F(FindingDismissalTest, DismissAndRestoreUndoAndRedoExactly) {
    EditHistory history(*m_file);
    ASSERT_TRUE(history.push(std::make_unique<DismissFindingCommand>(dismissal("roofline", "nit on this shape"))));
    const FindingDismissal saved = listed().at(0);
    ASSERT_TRUE(history.undo());
    EXPECT_TRUE(listed().empty());
    ASSERT_TRUE(history.redo());
    EXPECT_EQ(listed().at(0), saved); // same id, same time

    ASSERT_TRUE(history.push(std::make_unique<RestoreFindingCommand>(m_taskId, "roofline")));
    EXPECT_TRUE(listed().empty());
    ASSERT_TRUE(history.undo());
    EXPECT_EQ(listed().at(0), saved);
    // Restoring what is not dismissed is an error, not a silent success.
    EXPECT_FALSE(m_file->findingDismissals().remove(m_taskId, "exposed-dma"));
}

TEST_F(FindingDismissalTest, ADismissalSurvivesReopening) {
    ASSERT_TRUE(m_file->findingDismissals().add(dismissal("roofline", "expected for a memory-bound kernel")));
    const std::string path = m_file->path();
    m_file.reset();
    auto again = ReviewFile::open(path);
    ASSERT_TRUE(again);
    const auto rows = again->findingDismissals().list(m_taskId).value();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].reason, "expected for a memory-bound kernel");
    EXPECT_EQ(rows[0].author, "alice");
}

} // namespace
} // namespace kl::core
