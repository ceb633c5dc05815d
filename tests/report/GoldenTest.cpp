// Golden files for the text formats: the sample review's report must not change unnoticed.
#include "ReportFixture.h"
#include "TestSupport.h"

#include "cli/Commands.h"
#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/JsonReport.h"
#include "report/MarkdownReport.h"
#include "report/ReportBuilder.h"
#ifdef KL_HAVE_QT_REPORT
#include "cli/VisualReports.h"
#include "report/ReportQt.h"
#endif

#include <gtest/gtest.h>

namespace kl::core::report::test {
namespace {

using kl::core::test::TempDir;

class GoldenTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_file.emplace(kl::core::test::makeReview(m_dir.file("sample.klreview")));
        fillSampleReview(*m_file);
    }
    TempDir m_dir;
    std::optional<ReviewFile> m_file;
};

TEST_F(GoldenTest, Markdown) {
    expectGolden("report.md", MarkdownReport::write(sampleReport(*m_file)));
}

TEST_F(GoldenTest, Json) {
    expectGolden("report.json", JsonReport::write(sampleReport(*m_file)));
}

TEST_F(GoldenTest, Csv) {
    expectGolden("scores.csv", CsvReport::write(sampleReport(*m_file)));
}

TEST_F(GoldenTest, SameReviewGivesSameBytes) {
    const Report a = sampleReport(*m_file);
    const Report b = sampleReport(*m_file);
    EXPECT_EQ(MarkdownReport::write(a), MarkdownReport::write(b));
    EXPECT_EQ(HtmlReport::write(a), HtmlReport::write(b));
    EXPECT_EQ(JsonReport::write(a), JsonReport::write(b));
}

TEST_F(GoldenTest, ContentIsComplete) {
    const Report report = sampleReport(*m_file);
    ASSERT_EQ(report.tasks.size(), 1u);
    const ReportTask& t = report.tasks.front();
    EXPECT_EQ(t.kernel, "nki_matmul");
    EXPECT_EQ(t.hardware, "trn1");
    ASSERT_EQ(t.annotations.size(), 4u);
    // The instruction anchor is placed in the run; line anchors carry their source lines.
    ASSERT_TRUE(t.annotations[1].instruction.has_value());
    EXPECT_EQ(t.annotations[1].instruction->irId, 7);
    ASSERT_EQ(t.annotations[2].snippets.size(), 1u);
    EXPECT_EQ(t.annotations[2].snippets[0].firstLine, 8);
    EXPECT_EQ(t.annotations[2].snippets[0].lines.size(), 3u);
    EXPECT_EQ(t.annotations[3].snippets[0].language, "cuda");
    EXPECT_TRUE(t.annotations[3].annotation.resolved);
    EXPECT_EQ(t.annotations[0].replies.size(), 1u);
    const std::string md = MarkdownReport::write(report);
    EXPECT_NE(md.find("Total time | 48.580 us"), std::string::npos) << md;
    EXPECT_NE(md.find("time 1.200 us - 3.400 us"), std::string::npos);
}

TEST_F(GoldenTest, NoStoredRunAndNoSimulatorSaysSo) {
    const Task other = *m_file->tasks().add("empty", "Nothing run", {});
    BuildOptions options;
    options.taskId = other.id;
    auto report = ReportBuilder(*m_file, options).build();
    ASSERT_TRUE(report);
    ASSERT_EQ(report->tasks.size(), 1u);
    EXPECT_TRUE(report->tasks[0].metrics.empty());
    EXPECT_NE(MarkdownReport::write(*report).find("No run stored"), std::string::npos);
}

TEST_F(GoldenTest, FailedResimulationIsAWarningNotAFailure) {
    BuildOptions options;
    options.wantRun = true;
    options.simulate = [](const Task&,
                          const std::vector<TaskFile>&) -> Expected<std::shared_ptr<const sim::SimResult>> {
        return makeError(ErrorCode::KernelError, "kernel raised");
    };
    auto report = ReportBuilder(*m_file, options).build();
    ASSERT_TRUE(report);
    EXPECT_EQ(report->tasks[0].warnings.size(), 1u);
    EXPECT_FALSE(report->tasks[0].metrics.empty()); // from the stored run
}

TEST_F(GoldenTest, UnknownTaskIsNotFound) {
    BuildOptions options;
    options.taskId = 999;
    auto report = ReportBuilder(*m_file, options).build();
    ASSERT_FALSE(report);
    EXPECT_EQ(report.error().code, ErrorCode::NotFound);
}

TEST_F(GoldenTest, CommandWritesEachTextFormat) {
    const std::string review = m_file->path();
    m_file.reset(); // the command opens its own connection
    for (const char* format : {"md", "json", "csv", "html"}) {
        const std::string out = m_dir.file(std::string("r.") + format);
        const int code = kl::app::runReportCommand(
            {review, "--format", format, "-o", out, "--no-simulate", "--generated-at", "fixed"});
        EXPECT_EQ(code, 0) << format;
        EXPECT_FALSE(kl::core::test::readBytes(out).empty()) << format;
    }
    EXPECT_EQ(kl::app::runReportCommand({review, "--format", "docx", "-o", m_dir.file("x")}), 2);
    EXPECT_EQ(kl::app::runReportCommand({review, "--task", "42", "-o", m_dir.file("x.md"), "--no-simulate"}), 2);
    EXPECT_EQ(kl::app::runReportCommand({m_dir.file("missing.klreview"), "-o", m_dir.file("x.md")}), 1);
}

#ifdef KL_HAVE_QT_REPORT
TEST_F(GoldenTest, CommandWritesPdfWithTheQtHalf) {
    const std::string review = m_file->path();
    m_file.reset();
    const std::string out = m_dir.file("r.pdf");
    // No writer installed and no kernellens-cli-qt beside this test program: refused, nothing written.
    kl::app::installVisualReportWriter(nullptr);
    EXPECT_FALSE(kl::app::qtHalfProgram().has_value());
    EXPECT_EQ(kl::app::runReportCommand({review, "-o", out, "--no-simulate"}), 1);
    EXPECT_FALSE(std::filesystem::exists(out));
    // As kernellens-cli-qt runs it.
    kl::app::installVisualReportWriter(&kl::app::report::writeVisualReport);
    ASSERT_EQ(kl::app::runReportCommand({review, "-o", out, "--no-simulate"}), 0);
    EXPECT_EQ(kl::core::test::readBytes(out).substr(0, 5), "%PDF-");
    kl::app::installVisualReportWriter(nullptr);
}
#endif

} // namespace
} // namespace kl::core::report::test
