// The JSON report validates against docs/report-schema.json. The validator covers the subset of
// JSON Schema the schema uses: type (name or list), required, properties, items, enum,
// additionalProperties (false). Anything else in the schema fails the test, so the subset cannot
// silently grow without the validator.
#include "JsonSchemaCheck.h"
#include "ReportFixture.h"
#include "TestSupport.h"

#include "report/JsonReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core::report::test {
namespace {

using Json = nlohmann::json;
using kl::core::test::validateJson;

Json loadSchema() {
    return Json::parse(kl::core::test::readBytes(std::string(KL_SOURCE_DIR) + "/docs/report-schema.json"));
}

std::vector<std::string> errorsOf(const std::string& text) {
    std::vector<std::string> errors;
    validateJson(loadSchema(), Json::parse(text), "$", errors);
    return errors;
}

TEST(ReportSchema, SampleReportValidates) {
    kl::core::test::TempDir dir;
    ReviewFile file = kl::core::test::makeReview(dir.file("s.klreview"));
    fillSampleReview(file);
    const auto errors = errorsOf(JsonReport::write(sampleReport(file)));
    EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
}

TEST(ReportSchema, HostileReportValidates) {
    const auto errors = errorsOf(JsonReport::write(hostileReport()));
    EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
}

TEST(ReportSchema, ValidatorCatchesMistakes) {
    kl::core::test::TempDir dir;
    ReviewFile file = kl::core::test::makeReview(dir.file("s.klreview"));
    fillSampleReview(file);
    Json report = Json::parse(JsonReport::write(sampleReport(file)));
    report["tasks"][0]["annotations"][0]["severity"] = "catastrophic";
    report["tasks"][0]["scorecard"].erase("result");
    report["tasks"][0]["surprise"] = 1;
    report["tasks"][0]["metrics"][0]["value"] = 3;
    std::vector<std::string> errors;
    validateJson(loadSchema(), report, "$", errors);
    EXPECT_EQ(errors.size(), 4u) << ::testing::PrintToString(errors);
}

} // namespace
} // namespace kl::core::report::test
