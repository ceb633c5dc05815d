#include "TestSupport.h"

#include <gtest/gtest.h>

#include <limits>

namespace kl::core {
namespace {

class AnchorRoundTrip : public ::testing::TestWithParam<Anchor> {};

TEST_P(AnchorRoundTrip, SurvivesReopen) {
    test::TempDir dir;
    const std::string path = dir.file("r.klreview");
    Annotation saved;
    {
        auto file = test::makeReview(path);
        auto task = file.tasks().add("t", "T", {});
        ASSERT_TRUE(task);
        Annotation a;
        a.taskId = task->id;
        a.anchor = GetParam();
        a.rubricItem = "hw.partition_dim";
        a.severity = Severity::Major;
        a.score = 2;
        a.text = "partition dim on the free axis";
        a.author = "alice";
        auto created = file.annotations().create(a);
        ASSERT_TRUE(created) << formatError(created.error());
        saved = *created;
        EXPECT_EQ(saved.anchor, GetParam());
    }
    auto file = ReviewFile::open(path);
    ASSERT_TRUE(file);
    auto back = file->annotations().get(saved.id);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, saved);
    EXPECT_EQ(back->anchor, GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllKinds, AnchorRoundTrip,
                         ::testing::Values(Anchor::timeRange(0, 0), Anchor::timeRange(1500, 987654321),
                                           Anchor::timeRange(0, std::numeric_limits<std::int64_t>::max()),
                                           Anchor::instruction(0), Anchor::instruction(424242), Anchor::nkiLines(1, 1),
                                           Anchor::nkiLines(12, 40), Anchor::cudaLines(7, 9),
                                           Anchor::cudaLines(1, 100000)));

TEST(Anchor, InvalidAnchorsRejected) {
    test::TempDir dir;
    auto file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().add("t", "T", {});
    ASSERT_TRUE(task);
    for (const Anchor& bad : {Anchor::timeRange(10, 5), Anchor::timeRange(-1, 5), Anchor::instruction(-3),
                              Anchor::nkiLines(0, 3), Anchor::cudaLines(5, 4)}) {
        Annotation a;
        a.taskId = task->id;
        a.anchor = bad;
        a.text = "x";
        a.author = "alice";
        auto created = file.annotations().create(a);
        ASSERT_FALSE(created);
        EXPECT_EQ(created.error().code, ErrorCode::InvalidArgument);
    }
    EXPECT_TRUE(file.annotations().list()->empty());
}

} // namespace
} // namespace kl::core
