// Issue 17, loaders: wrong JSON types and extreme numbers in task.json, lessons and what-ifs are errors that
// name the file and the field (never an escaping exception); user text reaches the terminal without escape
// sequences; the what-if ranges lie inside the profile's.
#include "TestSupport.h"

#include "cli/Commands.h"
#include "hw/ProfileFields.h"
#include "lesson/LessonLoader.h"
#include "report/TextEscape.h"
#include "task/TaskSpec.h"
#include "whatif/WhatIfSettings.h"

#include <gtest/gtest.h>

namespace kl::core {
namespace {

TEST(TerminalText, DropsEscapeSequencesControlsAndBidiOverrides) {
    const std::string replacement = "\xEF\xBF\xBD";
    EXPECT_EQ(report::terminalText("plain text, caf\xC3\xA9"), "plain text, caf\xC3\xA9");
    EXPECT_EQ(report::terminalText("a\x1b[2Jb"), "a" + replacement + "[2Jb");
    EXPECT_EQ(report::terminalText("\x07\x7f"), replacement + replacement);
    EXPECT_EQ(report::terminalText("x\xC2\x9B"
                                   "31mred"),
              "x" + replacement + "31mred"); // 8-bit CSI
    EXPECT_EQ(report::terminalText("\xE2\x80\xAE"
                                   "evil"),
              replacement + "evil"); // right-to-left override
    EXPECT_EQ(report::terminalText("one\ntwo\tthree"), "one" + replacement + "two" + replacement + "three");
    EXPECT_EQ(report::terminalText("one\ntwo\tthree", true), "one\ntwo\tthree");
    EXPECT_EQ(report::terminalText("bad \xff\xfe utf8"), "bad " + replacement + replacement + " utf8");
}

struct CliResult {
    int code;
    std::string out;
    std::string err;
};

CliResult review(std::vector<std::string> args) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = kl::app::runReviewCommand(args);
    std::string out = ::testing::internal::GetCapturedStdout();
    std::string err = ::testing::internal::GetCapturedStderr();
    return {code, out, err};
}

void writeTask(const std::filesystem::path& dir, const std::string& taskJson) {
    std::filesystem::create_directories(dir);
    test::writeBytes((dir / "task.json").string(), taskJson);
    test::writeBytes((dir / "kernel.py").string(), "def k(a):\n    return a\n");
}

TEST(HostileTaskJson, TitlesReachTheTerminalWithoutEscapeSequences) {
    test::TempDir dir;
    const std::string file = dir.file("r.klreview");
    ASSERT_EQ(review({"new", file}).code, 0);
    writeTask(dir.path() / "evil",
              R"({"format": 1, "title": "Evil \u001b[2J\u001b]0;pwned\u0007 \u009b31m title\nforged line",
                  "kernel_file": "kernel.py", "kernel": "k", "args": []})");
    const CliResult added = review({"add-task", file, dir.file("evil")});
    ASSERT_EQ(added.code, 0) << added.err;
    const CliResult listed = review({"list", file});
    ASSERT_EQ(listed.code, 0) << listed.err;
    for (const std::string& out : {added.out, listed.out}) {
        EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
        EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
        EXPECT_EQ(out.find("\xC2\x9B"), std::string::npos) << out;
        EXPECT_NE(out.find("pwned"), std::string::npos) << out;
        EXPECT_EQ(out.find("\nforged line"), std::string::npos) << "a title cannot start a line of its own";
    }
}

TEST(HostileTaskJson, WrongTypesAndExtremeNumbersAreErrorsNamingTheField) {
    test::TempDir dir;
    const std::string file = dir.file("r.klreview");
    ASSERT_EQ(review({"new", file}).code, 0);
    const std::pair<const char*, const char*> cases[] = {
        {R"({"format": 1, "title": 42, "kernel_file": "kernel.py", "kernel": "k", "args": []})",
         "title: expected a string, found the number 42"},
        {R"({"format": 1, "kernel_file": "kernel.py", "kernel": "k", "args": [], "grid": [1e999]})", "number overflow"},
        {R"({"format": 1, "kernel_file": "kernel.py", "kernel": "k", "args": [], "grid": [1e308]})",
         "grid[0]: expected an integer from 1 to 65536, found the number 1e+308"},
        {R"({"format": 1, "kernel_file": "kernel.py", "kernel": "k", "args": [], "grid": [256, 256, 256]})",
         "more than 65536 program instances"},
        {R"({"format": 1, "kernel_file": "kernel.py", "kernel": "k",
             "args": [{"name": "a", "shape": [1099511627776, 2], "dtype": "float32"}]})",
         "args[0].shape: more than 2^40 elements"},
        {R"({"format": 1, "kernel_file": 3, "kernel": "k", "args": []})", "kernel_file: expected a string"},
        {R"({"format": "1", "kernel_file": "kernel.py", "kernel": "k", "args": []})", "format: expected 1"},
        {R"({"format": 1, "kernel_file": "kernel.py", "kernel": "k", "args": [], "scalars": [1]})",
         "scalars: expected an object"},
        {"{\"format\": 1, \"title\": \"\xff\"}", "ill-formed UTF-8"},
    };
    int n = 0;
    for (const auto& [text, fragment] : cases) {
        const auto task = dir.path() / ("t" + std::to_string(n++));
        writeTask(task, text);
        auto spec = loadTaskSpec(task);
        ASSERT_FALSE(spec) << text;
        EXPECT_NE(spec.error().message.find(fragment), std::string::npos) << spec.error().message;
        EXPECT_EQ(std::filesystem::path(spec.error().file).filename(), "task.json");
        // The review's add-task reads task.json the same way: an error and exit status 1, never "internal error".
        const CliResult added = review({"add-task", file, task.string()});
        EXPECT_EQ(added.code, 1) << text;
        EXPECT_NE(added.err.find(fragment), std::string::npos) << added.err;
    }
}

std::string lessonWith(const std::string& anchors, const std::string& whatIf = R"({"dma.queues": 2})",
                       const std::string& version = "1") {
    return R"({"lesson_version": )" + version + R"(, "title": "T", "summary": "S", "cuda_counterpart": "C",
              "steps": [{"title": "a", "text": "b", "anchors": {"task": "softmax")" +
           anchors + R"(}, "what_if": )" + whatIf + "}]}";
}

TEST(HostileLesson, ExtremeNumbersAndWrongTypesAreErrors) {
    const LessonLoader loader(std::filesystem::path(KL_SOURCE_DIR) / "examples");
    ASSERT_TRUE(loader.loadString(lessonWith(""), "l.json"));
    const std::pair<std::string, const char*> cases[] = {
        {lessonWith(R"(, "time_range": {"from": 0, "to": 1e308, "unit": "us"})"), "to <= 1e+09 (microseconds)"},
        {lessonWith(R"(, "time_range": {"from": 0, "to": 0.5, "unit": 7})"), "unit: expected a non-empty string"},
        {lessonWith(R"(, "nki_lines": [1, 10000000000])"), "nki_lines: expected [first, last]"},
        {lessonWith(R"(, "nki_lines": [1.5, 2])"), "nki_lines"},
        {lessonWith("", R"({"dma.queues": 1e308})"), "what_if.dma.queues: expected a number from 1 to 64 queues"},
        {lessonWith("", R"({"clocks.tensor": "fast"})"), "found the string \"fast\""},
        {lessonWith("", R"({"dma.queues": 2})", "\"1\""), "lesson_version: expected 1, found the string \"1\""},
        {lessonWith(R"(, "time_range": {"from": 0, "to": 1e999})"), "not valid JSON"},
    };
    for (const auto& [text, fragment] : cases) {
        auto lesson = loader.loadString(text, "l.json");
        ASSERT_FALSE(lesson) << text;
        EXPECT_EQ(lesson.error().file, "l.json");
        EXPECT_NE(lesson.error().message.find(fragment), std::string::npos) << lesson.error().message;
    }
}

TEST(WhatIfRanges, LieInsideTheProfileRanges) {
    for (const WhatIfField& w : whatIfFields()) {
        const sim::ProfileField* p = sim::findProfileField(w.key);
        ASSERT_NE(p, nullptr) << w.key;
        EXPECT_GE(w.minimum, p->minimum) << w.key;
        EXPECT_LE(w.maximum, p->maximum) << w.key;
        EXPECT_EQ(w.integral, p->integral) << w.key;
    }
}

} // namespace
} // namespace kl::core
