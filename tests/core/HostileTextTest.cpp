#include "TestSupport.h"

#include "review/TextCheck.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

class HostileText : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileText, StoredAndReadBackExactly) {
    test::TempDir dir;
    const std::string path = dir.file("r.klreview");
    std::int64_t id = 0, replyId = 0;
    {
        auto file = test::makeReview(path);
        auto task = file.tasks().add(GetParam().substr(0, 64) + "-folder", GetParam(), {{"k.py", "nki", GetParam()}});
        ASSERT_TRUE(task) << formatError(task.error());
        Annotation a;
        a.taskId = task->id;
        a.anchor = Anchor::instruction(1);
        a.text = GetParam();
        a.author = GetParam();
        auto created = file.annotations().create(a);
        ASSERT_TRUE(created) << formatError(created.error());
        id = created->id;
        auto reply = file.annotations().addReply(id, "bob", GetParam());
        ASSERT_TRUE(reply);
        replyId = reply->id;
    }
    auto file = ReviewFile::open(path);
    ASSERT_TRUE(file);
    auto back = file->annotations().get(id);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->text, GetParam());
    EXPECT_EQ(back->author, GetParam());
    EXPECT_EQ(file->annotations().replies(id)->front().text, GetParam());
    EXPECT_EQ(file->annotations().replies(id)->front().id, replyId);
    auto tasks = file->tasks().list();
    ASSERT_TRUE(tasks && tasks->size() == 1);
    EXPECT_EQ(tasks->front().title, GetParam());
    EXPECT_EQ(file->tasks().files(tasks->front().id)->front().content, GetParam());
    // The table is still there and the filter by author matches the exact string.
    EXPECT_EQ(file->annotations().list({.author = GetParam()})->size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Strings, HostileText,
    ::testing::Values(
        std::string("it's \"quoted\" `back` 'single'"), std::string("'); DROP TABLE annotation; --"),
        std::string("\" OR 1=1 --"), std::string("<script>alert('x')</script><b>&amp;</b>"),
        std::string("line1\nline2\r\nline3\ttab"), std::string("?1 ?2 :name @x $y %s {} {0}"),
        std::string("emoji \xF0\x9F\x98\x80 CJK \xE4\xB8\xAD\xE6\x96\x87 RTL \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D"),
        std::string(1 << 20, 'x'), std::string("\xEF\xBB\xBF BOM first")));

TEST(HostileTextRejected, InvalidUtf8NulAndHugeAreRejectedWithMessage) {
    test::TempDir dir;
    auto file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().add("t", "T", {});
    ASSERT_TRUE(task);
    const std::string bad[] = {std::string("\xFF\xFE bad"),      std::string("trunc \xE4\xB8"),
                               std::string("\xC0\xAF overlong"), std::string("surrogate \xED\xA0\x80"),
                               std::string("nul\0inside", 10),   std::string(kMaxTextBytes + 1, 'y')};
    for (const std::string& text : bad) {
        Annotation a;
        a.taskId = task->id;
        a.anchor = Anchor::instruction(1);
        a.text = text;
        a.author = "alice";
        auto created = file.annotations().create(a);
        ASSERT_FALSE(created);
        EXPECT_EQ(created.error().code, ErrorCode::InvalidArgument);
        EXPECT_NE(created.error().message.find("annotation text"), std::string::npos) << created.error().message;
        EXPECT_FALSE(file.annotations().addReply(1, "bob", text));
        EXPECT_FALSE(file.tasks().add("x", text, {}));
    }
    EXPECT_TRUE(file.annotations().list()->empty());
    EXPECT_EQ(file.tasks().list()->size(), 1u);
}

TEST(HostileTextRejected, Utf8Validator) {
    EXPECT_TRUE(isValidUtf8(""));
    EXPECT_TRUE(isValidUtf8("plain"));
    EXPECT_TRUE(isValidUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
    EXPECT_FALSE(isValidUtf8("\xF4\x90\x80\x80")); // past U+10FFFF
    EXPECT_FALSE(isValidUtf8("\x80"));
    EXPECT_FALSE(isValidUtf8("\xE0\x80\x80")); // overlong
}

} // namespace
} // namespace kl::core
