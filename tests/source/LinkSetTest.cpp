#include "source/LinkSet.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using kl::core::AddLinkCommand;
using kl::core::LineLink;
using kl::core::LinkOrigin;
using kl::core::LinkSet;
using kl::core::LinkState;
using kl::core::RemoveLinkCommand;
using kl::core::SetLinkStateCommand;

namespace {

LineLink link(int c0, int c1, int n0, int n1, LinkOrigin origin = LinkOrigin::Reviewer,
              LinkState state = LinkState::Accepted) {
    LineLink l;
    l.cudaFirst = c0;
    l.cudaLast = c1;
    l.nkiFirst = n0;
    l.nkiLast = n1;
    l.origin = origin;
    l.state = state;
    return l;
}

} // namespace

TEST(LinkSet, AddAndRemoveUndoRedoInMemory) {
    LinkSet set;
    set.reset({link(1, 3, 10, 12, LinkOrigin::Comment)});
    AddLinkCommand add(link(5, 6, 20, 22));
    ASSERT_TRUE(add.apply(set));
    EXPECT_EQ(set.entries().size(), 2U);
    const auto key = add.key();
    RemoveLinkCommand remove(key);
    ASSERT_TRUE(remove.apply(set));
    EXPECT_EQ(set.entries().size(), 1U);
    EXPECT_EQ(remove.description(), "Unlink CUDA 5-6 <-> NKI 20-22");
    ASSERT_TRUE(remove.revert(set)); // undo the removal: same key again
    ASSERT_NE(set.find(key), nullptr);
    EXPECT_EQ(set.find(key)->link.nkiFirst, 20);
    ASSERT_TRUE(add.revert(set)); // undo the add
    EXPECT_EQ(set.find(key), nullptr);
    ASSERT_TRUE(add.apply(set)); // redo
    EXPECT_EQ(add.key(), key);
    EXPECT_EQ(set.atNkiLine(21)->key, key);
    EXPECT_EQ(set.atCudaLine(2)->link.origin, LinkOrigin::Comment);
}

TEST(LinkSet, NarrowestLinkWinsAndDismissedAreHidden) {
    LinkSet set;
    set.reset(
        {link(1, 30, 1, 40), link(5, 6, 10, 11), link(7, 7, 12, 12, LinkOrigin::Suggestion, LinkState::Rejected)});
    EXPECT_EQ(set.atNkiLine(10)->link.cudaFirst, 5);
    EXPECT_EQ(set.atNkiLine(20)->link.cudaFirst, 1);
    EXPECT_EQ(set.atNkiLine(12)->link.cudaFirst, 1); // the dismissed suggestion does not count
    EXPECT_EQ(set.visible().size(), 2U);
    EXPECT_FALSE(set.atCudaLine(31).has_value());
}

TEST(LinkSet, InvalidRangesAreRefused) {
    LinkSet set;
    AddLinkCommand bad(link(5, 4, 1, 1));
    EXPECT_FALSE(bad.apply(set));
    EXPECT_TRUE(set.entries().empty());
}

TEST(LinkSet, AcceptAndDismissSuggestionsUndo) {
    LinkSet set;
    set.reset({link(4, 10, 3, 6, LinkOrigin::Suggestion, LinkState::Proposed)});
    const auto key = set.entries().front().key;
    SetLinkStateCommand accept(key, LinkState::Accepted);
    ASSERT_TRUE(accept.apply(set));
    EXPECT_EQ(set.find(key)->link.state, LinkState::Accepted);
    ASSERT_TRUE(accept.revert(set));
    EXPECT_EQ(set.find(key)->link.state, LinkState::Proposed);
    SetLinkStateCommand dismiss(key, LinkState::Rejected);
    ASSERT_TRUE(dismiss.apply(set));
    EXPECT_TRUE(set.visible().empty());
}

TEST(LinkSet, ReviewerLinksAndDecisionsAreStoredInTheReviewFile) {
    kl::core::test::TempDir dir;
    auto review = kl::core::test::makeReview(dir.file("r.klreview"));
    auto task = review.tasks().addFromFolder(kl::core::test::makeTaskFolder(dir.path(), "t1"));
    ASSERT_TRUE(task) << task.error().message;
    kl::core::ReviewLinkStore store(review, task->id);
    LinkSet set;
    set.setStore(&store);
    set.reset({link(1, 2, 3, 3, LinkOrigin::Comment), link(4, 5, 6, 7, LinkOrigin::Suggestion, LinkState::Proposed)});
    const auto suggestion = set.entries()[1].key;

    AddLinkCommand add(link(8, 9, 10, 11));
    ASSERT_TRUE(add.apply(set));
    SetLinkStateCommand accept(suggestion, LinkState::Accepted);
    ASSERT_TRUE(accept.apply(set));
    auto stored = store.list();
    ASSERT_TRUE(stored);
    ASSERT_EQ(stored->size(), 2U); // the reviewer link and the accepted suggestion, not the comment
    const auto& reviewer = (*stored)[0].origin == LinkOrigin::Reviewer ? (*stored)[0] : (*stored)[1];
    const auto& accepted = (*stored)[0].origin == LinkOrigin::Reviewer ? (*stored)[1] : (*stored)[0];
    EXPECT_EQ(reviewer.cudaFirst, 8);
    EXPECT_EQ(accepted.origin, LinkOrigin::Suggestion);
    EXPECT_EQ(accepted.state, LinkState::Accepted);
    EXPECT_EQ(accepted.cudaFirst, 4);

    ASSERT_TRUE(accept.revert(set)); // back to an open suggestion: not in the file
    ASSERT_TRUE(add.revert(set));
    stored = store.list();
    ASSERT_TRUE(stored);
    EXPECT_TRUE(stored->empty());
    ASSERT_TRUE(add.apply(set)); // redo writes it again
    stored = store.list();
    ASSERT_TRUE(stored);
    ASSERT_EQ(stored->size(), 1U);
    EXPECT_EQ(set.find(add.key())->link.id, (*stored)[0].id);
}
