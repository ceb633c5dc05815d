#include "trace/TraceRunner.h"

#include "support/ResourcePaths.h"

#include <gtest/gtest.h>

namespace {

using kl::ErrorCode;
using kl::core::parseFrontendError;

TEST(TraceRunner, MapsTheFrontEndErrorObject) {
    const auto error = parseFrontendError(
        R"({"error": {"code": "kernel_error", "message": "partition dimension 129 exceeds 128",
                      "file": "kernel.py", "line": 14, "hint": "tile the first dimension by 128"}})",
        "");
    EXPECT_EQ(error.code, ErrorCode::KernelError);
    EXPECT_EQ(error.file, "kernel.py");
    EXPECT_EQ(error.line, 14);
    EXPECT_EQ(kl::formatError(error),
              "kernel.py:14: error: partition dimension 129 exceeds 128\n  hint: tile the first dimension by 128");
}

TEST(TraceRunner, OutputThatIsNotAnErrorObjectIsReportedAsABugWithTheStderr) {
    const auto error = parseFrontendError("Traceback (most recent call last):", "ImportError: boom");
    EXPECT_EQ(error.code, ErrorCode::Internal);
    EXPECT_NE(error.message.find("ImportError: boom"), std::string::npos);
}

TEST(TraceRunner, RefusesAnEmptyRequest) {
    auto outcome = kl::core::runTrace(kl::core::TraceRequest{});
    ASSERT_FALSE(outcome);
    EXPECT_EQ(outcome.error().code, ErrorCode::InvalidArgument);
}

TEST(ResourcePaths, FindsTheBundledResources) {
    EXPECT_TRUE(std::filesystem::is_directory(kl::core::resourcesDir()));
    EXPECT_EQ(kl::core::frontendEntryScript().filename(), "kltrace_main.py");
}

} // namespace
