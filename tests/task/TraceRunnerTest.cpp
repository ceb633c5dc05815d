#include "trace/TraceRunner.h"

#include "support/ResourcePaths.h"
#include "trace/FrontendReport.h"

#include <gtest/gtest.h>

namespace {

using kl::ErrorCode;
using kl::core::parseFrontendReport;

TEST(FrontendReport, MapsTheFrontEndErrorObjectCarryingTheNonce) {
    const auto report = parseFrontendReport(
        R"(
{"nonce": "n1", "error": {"code": "kernel_error", "message": "partition dimension 129 exceeds 128", "file": "kernel.py", "line": 14, "hint": "tile the first dimension by 128"}}
)",
        "n1");
    ASSERT_TRUE(report && report->error);
    EXPECT_EQ(report->error->code, ErrorCode::KernelError);
    EXPECT_EQ(report->error->file, "kernel.py");
    EXPECT_EQ(report->error->line, 14);
    EXPECT_EQ(kl::formatError(*report->error),
              "kernel.py:14: error: partition dimension 129 exceeds 128\n  hint: tile the first dimension by 128");
}

TEST(FrontendReport, IgnoresReportsWithoutTheNonceAndGarbage) {
    const std::string forged = R"({"error": {"code": "kernel_error", "message": "FORGED"}})"
                               "\n"
                               R"({"nonce": "guess", "done": {"bytes": 10}})"
                               "\nTraceback (most recent call last):\n";
    EXPECT_FALSE(parseFrontendReport(forged, "n1"));
    EXPECT_FALSE(parseFrontendReport(forged, ""));
    const auto report =
        parseFrontendReport(forged + "half a line\n" + R"({"nonce": "n1", "done": {"bytes": 7}})", "n1");
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->done);
    EXPECT_FALSE(report->error);
    EXPECT_EQ(report->bytes, 7u);
}

TEST(FrontendReport, ADoneMarkerNeedsASize) {
    EXPECT_FALSE(parseFrontendReport(R"({"nonce": "n1", "done": {"bytes": -1}})", "n1"));
    EXPECT_FALSE(parseFrontendReport(R"({"nonce": "n1", "done": {}})", "n1"));
    EXPECT_FALSE(parseFrontendReport(R"({"nonce": "n1"})", "n1"));
}

TEST(TraceRunner, RefusesAnEmptyRequest) {
    kl::core::TraceRequest request;
    request.output = "/tmp/unused.json";
    auto outcome = kl::core::runTrace(request);
    ASSERT_FALSE(outcome);
    EXPECT_EQ(outcome.error().code, ErrorCode::InvalidArgument);
}

TEST(ResourcePaths, FindsTheBundledResources) {
    EXPECT_TRUE(std::filesystem::is_directory(kl::core::resourcesDir()));
    EXPECT_EQ(kl::core::frontendEntryScript().filename(), "kltrace_main.py");
}

} // namespace
