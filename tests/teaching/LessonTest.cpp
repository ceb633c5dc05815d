#include "lesson/LessonLoader.h"
#include "lesson/LessonText.h"
#include "support/ResourcePaths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kl::core {

namespace {

const char* kGood = R"({
  "lesson_version": 1,
  "title": "T",
  "summary": "S",
  "cuda_counterpart": "C",
  "steps": [
    {"title": "one", "text": "took {a.total_us}", "anchors": {"task": "softmax", "nki_lines": [3, 5],
     "time_range": {"from": 0, "to": 0.5}}, "what_if": {"dma.queues": 2}},
    {"title": "two", "text": "x", "anchors": {"task": "softmax"}, "compare": {"task": "rmsnorm"}}
  ]
})";

Expected<Lesson> load(const std::string& text) {
    return LessonLoader(examplesDir()).loadString(text, "lesson.json");
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

} // namespace

TEST(Lesson, LoadsAWellFormedLesson) {
    auto lesson = load(kGood);
    ASSERT_TRUE(lesson.has_value()) << formatError(lesson.error());
    ASSERT_EQ(lesson->steps.size(), 2u);
    const auto& s = lesson->steps[0];
    EXPECT_EQ(s.task, "softmax");
    EXPECT_EQ(s.hardware, "trn1");
    EXPECT_EQ(s.nkiLines.first, 3);
    EXPECT_EQ(s.nkiLines.last, 5);
    ASSERT_TRUE(s.timeRange.has_value());
    EXPECT_EQ(s.timeRange->to, 0.5);
    EXPECT_EQ(s.whatIf.at("dma.queues"), 2);
    ASSERT_TRUE(lesson->steps[1].compare.has_value());
    EXPECT_EQ(lesson->steps[1].compare->task, "rmsnorm");
    EXPECT_EQ(lesson->steps[1].compare->hardware, "trn1");
}

TEST(Lesson, BadJsonGivesTheLine) {
    const std::string broken = replaced(kGood, R"("summary": "S",)", R"("summary": "S")"); // missing comma, line 4
    auto lesson = load(broken);
    ASSERT_FALSE(lesson.has_value());
    EXPECT_EQ(lesson.error().code, ErrorCode::Parse);
    EXPECT_EQ(lesson.error().file, "lesson.json");
    EXPECT_EQ(lesson.error().line, 5) << "the parser stops at the next key, on line 5: " << lesson.error().message;
    EXPECT_NE(formatError(lesson.error()).find("lesson.json:5"), std::string::npos) << formatError(lesson.error());
}

TEST(Lesson, MissingFieldsAreNamed) {
    struct Case {
        std::string from;
        std::string to;
        std::string named;
    };
    const Case cases[] = {
        {R"("title": "T",)", "", "title is missing"},
        {R"("cuda_counterpart": "C",)", "", "cuda_counterpart is missing"},
        {R"("title": "two", "text": "x",)", R"("title": "two",)", "steps[1].text is missing"},
        {R"("anchors": {"task": "softmax"}, "compare")", R"("compare")", "steps[1].anchors is missing"},
        {R"("anchors": {"task": "softmax"}, "compare")", R"("anchors": {}, "compare")",
         "steps[1].anchors.task is missing"},
    };
    for (const Case& c : cases) {
        auto lesson = load(replaced(kGood, c.from, c.to));
        ASSERT_FALSE(lesson.has_value()) << c.named;
        EXPECT_NE(lesson.error().message.find(c.named), std::string::npos) << lesson.error().message;
        EXPECT_EQ(lesson.error().file, "lesson.json");
    }
}

TEST(Lesson, UnknownExampleIsNamedWithTheKnownOnes) {
    auto lesson = load(replaced(kGood, R"("compare": {"task": "rmsnorm"})", R"("compare": {"task": "matmul_magic"})"));
    ASSERT_FALSE(lesson.has_value());
    EXPECT_NE(lesson.error().message.find("unknown example \"matmul_magic\""), std::string::npos)
        << lesson.error().message;
    EXPECT_NE(lesson.error().message.find("steps[1].compare.task"), std::string::npos) << lesson.error().message;
    EXPECT_NE(lesson.error().message.find("matmul_hoisted"), std::string::npos) << "lists the examples that exist";
    auto escape = load(replaced(kGood, R"("task": "softmax", "nki_lines")", R"("task": "../softmax", "nki_lines")"));
    ASSERT_FALSE(escape.has_value());
}

TEST(Lesson, BadWhatIfFieldTimeRangeAndPlaceholderAreErrors) {
    auto field = load(replaced(kGood, R"("dma.queues": 2)", R"("dma.wormholes": 2)"));
    ASSERT_FALSE(field.has_value());
    EXPECT_NE(field.error().message.find("dma.wormholes"), std::string::npos);
    auto range = load(replaced(kGood, R"("to": 0.5)", R"("to": 1.5)"));
    ASSERT_FALSE(range.has_value());
    EXPECT_NE(range.error().message.find("time_range"), std::string::npos);
    auto placeholder = load(replaced(kGood, "{a.total_us}", "{a.totl_us}"));
    ASSERT_FALSE(placeholder.has_value());
    EXPECT_NE(placeholder.error().message.find("a.totl_us"), std::string::npos);
}

TEST(Lesson, BundledLessonsAllLoadAndNameTheirCudaCounterpart) {
    std::vector<Error> errors;
    const auto lessons = LessonLoader(examplesDir()).loadFolder(lessonsDir(), &errors);
    for (const Error& e : errors) {
        ADD_FAILURE() << formatError(e);
    }
    ASSERT_GE(lessons.size(), 5u);
    for (const Lesson& lesson : lessons) {
        EXPECT_FALSE(lesson.cudaCounterpart.empty()) << lesson.id;
        EXPECT_GE(lesson.steps.size(), 2u) << lesson.id;
    }
}

TEST(Lesson, BrokenFileOnDiskIsReportedWithItsPath) {
    const auto dir = std::filesystem::temp_directory_path() / "kl-lesson-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "a_good.json") << kGood;
    std::ofstream(dir / "b_broken.json") << "{\n  \"title\": \n}";
    std::vector<Error> errors;
    const auto lessons = LessonLoader(examplesDir()).loadFolder(dir, &errors);
    EXPECT_EQ(lessons.size(), 1u);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].file.find("b_broken.json"), std::string::npos);
    EXPECT_EQ(errors[0].line, 3);
    std::filesystem::remove_all(dir);
}

TEST(LessonText, LiveNumbersAndMarkupAreRenderedSafely) {
    const LessonNumbers numbers{{"a.total_us", 51800.0},
                                {"b.total_us", 523.44},
                                {"speedup", 3.4},
                                {"delta_pct.total_us", -17.06},
                                {"a.active_pct.tensor", 47.25}};
    const std::string html = renderLessonHtml(
        "A took {a.total_us}, B {b.total_us} ({delta_pct.total_us}, {speedup}); TensorE {a.active_pct.tensor}.\n\n"
        "- **bold** and `code` <script>\n- {b.dma_exposed_us}",
        numbers);
    EXPECT_NE(html.find("A took 51.80 ms, B 523.4 us (-17.1%, 3.40x); TensorE 47.2%."), std::string::npos) << html;
    EXPECT_NE(html.find("<b>bold</b>"), std::string::npos) << html;
    EXPECT_NE(html.find("<code>code</code>"), std::string::npos) << html;
    EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos) << html;
    EXPECT_EQ(html.find("<script>"), std::string::npos) << html;
    EXPECT_NE(html.find("<li>…</li>"), std::string::npos) << "a number not yet known shows as an ellipsis: " << html;
    EXPECT_NE(html.find("<ul>"), std::string::npos);
}

} // namespace kl::core
