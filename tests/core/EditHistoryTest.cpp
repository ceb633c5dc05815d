#include "TestSupport.h"

#include "review/AddReplyCommand.h"
#include "review/AnnotationCommands.h"
#include "review/EditHistory.h"
#include "review/SetScoreCommand.h"
#include "review/SetTaskStatusCommand.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

class EditHistoryTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_file = std::make_unique<ReviewFile>(test::makeReview(m_dir.file("r.klreview")));
        auto task = m_file->tasks().add("t", "T", {});
        ASSERT_TRUE(task);
        m_taskId = task->id;
    }
    Annotation draft(std::string text) const {
        Annotation a;
        a.taskId = m_taskId;
        a.anchor = Anchor::timeRange(100, 200);
        a.rubricItem = "perf.overlap";
        a.severity = Severity::Major;
        a.text = std::move(text);
        a.author = "alice";
        return a;
    }
    std::size_t count() { return m_file->annotations().list().value().size(); }

    test::TempDir m_dir;
    std::unique_ptr<ReviewFile> m_file;
    std::int64_t m_taskId = 0;
};

TEST_F(EditHistoryTest, CreateUndoRedoKeepsId) {
    EditHistory history(*m_file);
    auto cmd = std::make_unique<CreateAnnotationCommand>(draft("first"));
    auto* create = cmd.get();
    ASSERT_TRUE(history.push(std::move(cmd)));
    const std::int64_t id = create->id();
    ASSERT_GT(id, 0);
    ASSERT_TRUE(m_file->annotations().addReply(id, "bob", "a reply"));
    const Annotation saved = m_file->annotations().get(id).value();
    EXPECT_EQ(history.undoText(), "Add annotation");

    ASSERT_TRUE(history.undo());
    EXPECT_EQ(count(), 0u);
    EXPECT_FALSE(history.canUndo());
    EXPECT_TRUE(history.canRedo());
    // An unrelated annotation created meanwhile must not take the undone id.
    auto other = m_file->annotations().create(draft("other"));
    ASSERT_TRUE(other);
    EXPECT_NE(other->id, id);

    ASSERT_TRUE(history.redo());
    auto back = m_file->annotations().get(id);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, saved);
    EXPECT_EQ(m_file->annotations().replies(id)->size(), 1u);
}

TEST_F(EditHistoryTest, UpdateUndoRestoresExactRow) {
    auto created = m_file->annotations().create(draft("before"));
    ASSERT_TRUE(created);
    EditHistory history(*m_file);
    Annotation edited = *created;
    edited.text = "after";
    edited.anchor = Anchor::cudaLines(3, 4);
    edited.severity = Severity::Blocking;
    edited.resolved = true;
    edited.score = 1;
    ASSERT_TRUE(history.push(std::make_unique<UpdateAnnotationCommand>(edited)));
    auto now = m_file->annotations().get(created->id).value();
    EXPECT_EQ(now.text, "after");
    EXPECT_EQ(now.anchor, Anchor::cudaLines(3, 4));
    ASSERT_TRUE(history.undo());
    EXPECT_EQ(m_file->annotations().get(created->id).value(), *created);
    ASSERT_TRUE(history.redo());
    EXPECT_EQ(m_file->annotations().get(created->id).value(), now);
}

TEST_F(EditHistoryTest, DeleteUndoRestoresRepliesAndRedoTailIsDropped) {
    auto created = m_file->annotations().create(draft("doomed"));
    ASSERT_TRUE(created);
    ASSERT_TRUE(m_file->annotations().addReply(created->id, "bob", "one"));
    ASSERT_TRUE(m_file->annotations().addReply(created->id, "carol", "two"));
    const auto replies = m_file->annotations().replies(created->id).value();
    EditHistory history(*m_file);
    ASSERT_TRUE(history.push(std::make_unique<DeleteAnnotationCommand>(created->id)));
    EXPECT_EQ(count(), 0u);
    ASSERT_TRUE(history.undo());
    EXPECT_EQ(m_file->annotations().get(created->id).value(), *created);
    EXPECT_EQ(m_file->annotations().replies(created->id).value(), replies);

    // A new edit after an undo discards what could have been redone.
    ASSERT_TRUE(history.push(std::make_unique<CreateAnnotationCommand>(draft("new"))));
    EXPECT_FALSE(history.canRedo());
    EXPECT_EQ(count(), 2u);
    ASSERT_TRUE(history.undo());
    ASSERT_FALSE(history.canUndo());
    EXPECT_FALSE(history.undo());
}

TEST_F(EditHistoryTest, FailedCommandIsNotRecorded) {
    EditHistory history(*m_file);
    Annotation bad = draft("x");
    bad.anchor = Anchor::nkiLines(5, 1);
    EXPECT_FALSE(history.push(std::make_unique<CreateAnnotationCommand>(bad)));
    EXPECT_FALSE(history.canUndo());
    EXPECT_FALSE(history.push(std::make_unique<DeleteAnnotationCommand>(4242)));
    EXPECT_FALSE(history.canUndo());
}

TEST_F(EditHistoryTest, LongSequenceUndoesToEmptyAndRedoesToSame) {
    EditHistory history(*m_file);
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 20; ++i) {
        auto cmd = std::make_unique<CreateAnnotationCommand>(draft("n" + std::to_string(i)));
        auto* raw = cmd.get();
        ASSERT_TRUE(history.push(std::move(cmd)));
        ids.push_back(raw->id());
        if (i % 3 == 0) {
            Annotation e = m_file->annotations().get(raw->id()).value();
            e.text += " edited";
            ASSERT_TRUE(history.push(std::make_unique<UpdateAnnotationCommand>(e)));
        }
        if (i % 5 == 4) {
            ASSERT_TRUE(history.push(std::make_unique<DeleteAnnotationCommand>(ids[static_cast<std::size_t>(i) - 2])));
        }
    }
    const auto finalState = m_file->annotations().list().value();
    while (history.canUndo()) {
        ASSERT_TRUE(history.undo());
    }
    EXPECT_EQ(count(), 0u);
    while (history.canRedo()) {
        ASSERT_TRUE(history.redo());
    }
    EXPECT_EQ(m_file->annotations().list().value(), finalState);
}

TEST_F(EditHistoryTest, ScoreChangesUndoToThePreviousScore) {
    EditHistory history(*m_file);
    auto scores = m_file->scores();
    ASSERT_TRUE(history.push(std::make_unique<SetScoreCommand>(m_taskId, "perf.dma", 2, "alice")));
    const Score first = scores.find(m_taskId, "perf.dma").value().value();
    ASSERT_TRUE(history.push(std::make_unique<SetScoreCommand>(m_taskId, "perf.dma", 4, "bob")));
    ASSERT_TRUE(history.push(std::make_unique<SetScoreCommand>(m_taskId, "perf.dma", std::nullopt, "bob")));
    EXPECT_FALSE(scores.find(m_taskId, "perf.dma").value());
    ASSERT_TRUE(history.undo());
    EXPECT_EQ(scores.find(m_taskId, "perf.dma").value()->value, 4);
    ASSERT_TRUE(history.undo());
    const Score back = scores.find(m_taskId, "perf.dma").value().value();
    EXPECT_EQ(back.value, first.value);
    EXPECT_EQ(back.reviewer, "alice");
    EXPECT_EQ(back.updatedAt, first.updatedAt);
    ASSERT_TRUE(history.undo());
    EXPECT_FALSE(scores.find(m_taskId, "perf.dma").value());
    ASSERT_TRUE(history.redo());
    ASSERT_TRUE(history.redo());
    EXPECT_EQ(scores.find(m_taskId, "perf.dma").value()->reviewer, "bob");
    EXPECT_FALSE(history.push(std::make_unique<SetScoreCommand>(m_taskId, "perf.dma", 9, "bob")));
}

TEST_F(EditHistoryTest, TaskStatusUndoRedo) {
    EditHistory history(*m_file);
    const auto status = [&] { return m_file->tasks().get(m_taskId).value().status; };
    ASSERT_EQ(status(), TaskStatus::Todo);
    ASSERT_TRUE(history.push(std::make_unique<SetTaskStatusCommand>(m_taskId, TaskStatus::InProgress)));
    ASSERT_TRUE(history.push(std::make_unique<SetTaskStatusCommand>(m_taskId, TaskStatus::Done)));
    EXPECT_EQ(status(), TaskStatus::Done);
    EXPECT_EQ(history.undoText(), "Mark task done");
    ASSERT_TRUE(history.undo());
    EXPECT_EQ(status(), TaskStatus::InProgress);
    ASSERT_TRUE(history.undo());
    EXPECT_EQ(status(), TaskStatus::Todo);
    ASSERT_TRUE(history.redo());
    ASSERT_TRUE(history.redo());
    EXPECT_EQ(status(), TaskStatus::Done);
    // A missing task is refused and changes nothing.
    EXPECT_FALSE(history.push(std::make_unique<SetTaskStatusCommand>(m_taskId + 100, TaskStatus::Done)));
    EXPECT_EQ(history.undoText(), "Mark task done");
}

TEST_F(EditHistoryTest, ReplyUndoRedo) {
    auto annotation = m_file->annotations().create(draft("needs a reply"));
    ASSERT_TRUE(annotation);
    EditHistory history(*m_file);
    const auto replies = [&] { return m_file->annotations().replies(annotation->id).value(); };
    ASSERT_TRUE(history.push(std::make_unique<AddReplyCommand>(annotation->id, "bob", "agreed")));
    ASSERT_EQ(replies().size(), 1u);
    EXPECT_EQ(replies()[0].text, "agreed");
    EXPECT_EQ(replies()[0].author, "bob");
    ASSERT_TRUE(history.undo());
    EXPECT_TRUE(replies().empty());
    ASSERT_TRUE(history.redo());
    ASSERT_EQ(replies().size(), 1u);
    EXPECT_EQ(replies()[0].text, "agreed");
    // A reply to an annotation that does not exist is refused.
    EXPECT_FALSE(history.push(std::make_unique<AddReplyCommand>(annotation->id + 100, "bob", "lost")));
    EXPECT_EQ(replies().size(), 1u);
}

} // namespace
} // namespace kl::core
