// Findings in reports: an accepted finding is an annotation and is not listed again, an open one is listed with its
// severity, rule, title, figures and suggestion, a dismissed one with its reason; hostile text stays escaped.
#include "ReportFixture.h"
#include "TestSupport.h"

#include "findings/FindingAnnotation.h"
#include "report/HtmlReport.h"
#include "report/JsonReport.h"
#include "report/MarkdownReport.h"
#include "report/ReportBuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core::report::test {
namespace {

using kl::core::test::TempDir;
namespace fd = kl::core::findings;

fd::Finding finding(std::string rule, std::string title, Severity severity, std::string item) {
    fd::Finding f;
    f.rule = std::move(rule);
    f.title = std::move(title);
    f.severity = severity;
    f.rubricItem = std::move(item);
    f.figures.push_back({"small_transfer_time_pct", 83.5, "%", 25.0});
    f.suggestion = "Move at least 2 KiB per partition in each DMA.";
    return f;
}

class FindingsReportTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_file.emplace(kl::core::test::makeReview(m_dir.file("sample.klreview")));
        fillSampleReview(*m_file);
        m_task = m_file->tasks().list()->front().id;
        m_findings = {
            finding("dma-small-transfers", "Small DMA transfers", Severity::Major, "perf.dma"),
            finding("redundant-loads", "Redundant loads <script>alert(1)</script>", Severity::Minor, "perf.dma"),
            finding("roofline", "Roofline: memory-bound, 41 % of the DMA bandwidth", Severity::Nit,
                    "perf.utilization")};
    }
    Report build() {
        BuildOptions options;
        options.generatedAt = "2026-01-01T00:00:00Z";
        options.findings = [this](const Task&, const std::vector<TaskFile>&, const NumericsResult*) {
            return Expected<std::vector<fd::Finding>>(m_findings);
        };
        auto report = ReportBuilder(*m_file, options).build();
        EXPECT_TRUE(report) << formatError(report.error());
        return *report;
    }

    TempDir m_dir;
    std::optional<ReviewFile> m_file;
    std::int64_t m_task = 0;
    std::vector<fd::Finding> m_findings;
};

TEST_F(FindingsReportTest, AcceptedAreAnnotationsTheRestAreListedDismissedWithTheirReason) {
    // Accept the first (as the dock does, through annotationDraft), dismiss the last.
    Annotation accepted = fd::annotationDraft(m_findings[0], sim::TimelineData{}, "kernel.py").annotation;
    accepted.taskId = m_task;
    accepted.author = "alice";
    ASSERT_TRUE(m_file->annotations().create(accepted));
    ASSERT_TRUE(m_file->findingDismissals().add({0,
                                                 m_task,
                                                 "roofline",
                                                 "roofline",
                                                 m_findings[2].title,
                                                 "memory-bound is expected at this shape",
                                                 "alice",
                                                 {}}));

    const Report report = build();
    const ReportTask& t = report.tasks.front();
    EXPECT_TRUE(t.findingsRan);
    EXPECT_EQ(t.acceptedFindings, 1);
    ASSERT_EQ(t.findings.size(), 2u);
    EXPECT_EQ(t.findings[0].rule, "redundant-loads");
    EXPECT_FALSE(t.findings[0].dismissed);
    EXPECT_EQ(t.findings[1].rule, "roofline");
    EXPECT_TRUE(t.findings[1].dismissed);

    const std::string html = HtmlReport::write(report);
    EXPECT_NE(html.find("Findings not accepted (2)"), std::string::npos);
    EXPECT_NE(html.find("<code>redundant-loads</code>"), std::string::npos);
    EXPECT_NE(html.find("small_transfer_time_pct 83.5 % (threshold 25 %)"), std::string::npos) << html;
    EXPECT_NE(html.find("Suggestion: Move at least 2 KiB per partition"), std::string::npos);
    EXPECT_NE(html.find("memory-bound is expected at this shape"), std::string::npos);
    EXPECT_EQ(html.find("<code>dma-small-transfers</code>"), std::string::npos); // accepted: an annotation instead
    EXPECT_EQ(html.find("<script>alert"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);

    const std::string md = MarkdownReport::write(report);
    EXPECT_NE(md.find("### Findings not accepted (2)"), std::string::npos) << md;
    EXPECT_NE(md.find("Dismissed by alice: memory-bound is expected at this shape"), std::string::npos) << md;
    EXPECT_EQ(md.find("<script>"), std::string::npos);

    const auto json = nlohmann::json::parse(JsonReport::write(report));
    const auto& listed = json["tasks"][0]["findings"];
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(json["tasks"][0]["accepted_findings"], 1);
    EXPECT_EQ(listed[1]["dismissal_reason"], "memory-bound is expected at this shape");
    EXPECT_TRUE(listed[0]["dismissal_reason"].is_null());
}

TEST_F(FindingsReportTest, WithoutTheRulesThereIsNoFindingsSection) {
    BuildOptions options;
    options.generatedAt = "2026-01-01T00:00:00Z";
    auto report = ReportBuilder(*m_file, options).build();
    ASSERT_TRUE(report);
    EXPECT_EQ(HtmlReport::write(*report).find("Findings not accepted"), std::string::npos);
    EXPECT_FALSE(nlohmann::json::parse(JsonReport::write(*report))["tasks"][0].contains("findings"));
}

TEST_F(FindingsReportTest, FindingsThatCannotBeComputedAreAWarningNotAFailure) {
    BuildOptions options;
    options.findings = [](const Task&, const std::vector<TaskFile>&,
                          const NumericsResult*) -> Expected<std::vector<fd::Finding>> {
        return makeError(ErrorCode::KernelError, "the kernel raised");
    };
    auto report = ReportBuilder(*m_file, options).build();
    ASSERT_TRUE(report);
    EXPECT_FALSE(report->tasks.front().findingsRan);
    ASSERT_FALSE(report->tasks.front().warnings.empty());
    EXPECT_NE(report->tasks.front().warnings.back().find("the kernel raised"), std::string::npos);
}

// A stored task is written to a scratch folder and traced; its findings come after the run and read the CUDA
// source named by the task. The scratch folder must outlive the run for that (it once did not: every stored task
// with a CUDA file reported "findings could not be computed: kernel.cu: cannot open file").
TEST(StoredTaskFindings, ReadTheStoredCudaSourceAfterTheRun) {
    TempDir dir;
    ReviewFile file = kl::core::test::makeReview(dir.file("stored.klreview"));
    auto task = file.tasks().addFromFolder(KL_SOURCE_DIR "/examples/vector_add_nki");
    ASSERT_TRUE(task) << formatError(task.error());
    auto files = file.tasks().files(task->id);
    ASSERT_TRUE(files);
    auto stored = storedTaskCallbacks();
    auto run = stored.simulate(*task, *files);
    ASSERT_TRUE(run) << formatError(run.error());
    auto found = stored.findings(*task, *files, nullptr);
    ASSERT_TRUE(found) << formatError(found.error());
}

} // namespace
} // namespace kl::core::report::test
