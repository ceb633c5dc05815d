// An HTML golden file for a report whose titles, annotation text, replies, source lines and file names hold every
// character HTML gives meaning to (& < > " '), non-ASCII text and control characters: the exact bytes are
// compared, so an escape that goes missing or doubles shows up as a diff (tests/golden/report/
// escaping.html.actual beside the .expected file; KL_UPDATE_GOLDEN=1 accepts a deliberate change).
#include "ReportFixture.h"
#include "TestSupport.h"

#include "report/HtmlReport.h"
#include "report/ReportBuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core::report::test {
namespace {

// The five HTML specials, UTF-8 text (é, 日本, an emoji), C0 controls (SOH, ESC, DEL: replaced by U+FFFD),
// tab and newline (kept) and a C1 control (U+009B, passed through: it is valid UTF-8). No invalid UTF-8: the review
// file refuses it (checkText), and EscapeExactTest covers its replacement.
const std::string kAll = "a&b <i>\"q\"</i> 'x' &amp; \xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 "
                         "[\x01][\x1B[31m][\x7F] tab\there [\xC2\x9B]";
const std::string kFileName = "k&<>\"' \xC3\xA9.py";

std::string kernelText() {
    return "import neuronxcc.nki as nki\n"
           "# " +
           kAll +
           "\n"
           "@nki.jit\n"
           "def k(a):\n"
           "    return a  # a < b && c > \"d\" 'e'\n";
}

TEST(HtmlGolden, EverySpecialCharacterInTitlesTextAndFileNames) {
    kl::core::test::TempDir dir;
    auto file = kl::core::test::makeReview(dir.file("r.klreview"));
    nlohmann::json taskJson = {{"format", 1},         {"title", "Task " + kAll},
                               {"description", kAll}, {"kernel_file", kFileName},
                               {"kernel", "k"},       {"hardware", "trn1"}};
    auto task = file.tasks().add("folder " + kAll, "Task " + kAll,
                                 {{"task.json", "task_json", taskJson.dump()}, {kFileName, "nki", kernelText()}});
    ASSERT_TRUE(task) << formatError(task.error());
    Annotation a;
    a.taskId = task->id;
    a.author = "alice & \"bob\" <o'neil>";
    a.anchor = Anchor::nkiLines(2, 2);
    a.severity = Severity::Major;
    a.text = "Annotation " + kAll + "\nsecond line " + kAll;
    auto created = file.annotations().create(a);
    ASSERT_TRUE(created) << formatError(created.error());
    ASSERT_TRUE(file.annotations().addReply(created->id, "carol", "Reply " + kAll));

    BuildOptions options;
    options.generatedAt = "2026-01-01T00:00:00.000Z";
    auto built = ReportBuilder(file, options).build();
    ASSERT_TRUE(built) << formatError(built.error());
    Report report = *built;
    report.title = "Report " + kAll;
    report.reviewFile = "review " + kFileName + ".klreview";
    for (ReportTask& t : report.tasks) {
        for (ReportAnnotation& ra : t.annotations) {
            ra.annotation.createdAt = ra.annotation.updatedAt = "2026-01-01T10:00:00.000Z";
            for (Reply& r : ra.replies) {
                r.createdAt = "2026-01-01T11:00:00.000Z";
            }
        }
    }
    ASSERT_EQ(report.tasks.size(), 1u);
    ASSERT_EQ(report.tasks[0].annotations.size(), 1u);
    ASSERT_EQ(report.tasks[0].annotations[0].snippets.size(), 1u) << "the file name must reach the report";
    const std::string html = HtmlReport::write(report);
    EXPECT_TRUE(isValidUtf8(html));
    expectGolden("escaping.html", html);
}

} // namespace
} // namespace kl::core::report::test
