// `kernellens-cli numerics` without the front end (--from-json): the table, the exit codes (0 pass, 1 fail,
// 2 error), --json written atomically and valid against docs/numerics-schema.json, --review storing the run;
// and the schema itself against the fixtures (and a validator that can fail).
#include "NumericsCliRun.h"
#include "JsonSchemaCheck.h"
#include "TestSupport.h"

#include "cli/Commands.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core {
namespace {

using Json = nlohmann::json;

const std::string kData = std::string(KL_TEST_DATA_DIR) + "/numerics/";

using CliResult = test::NumericsCliResult;

CliResult numerics(const std::vector<std::string>& args) {
    return test::runNumericsCli(args);
}

std::vector<std::string> schemaErrors(const std::string& text) {
    const Json schema = Json::parse(test::readBytes(std::string(KL_SOURCE_DIR) + "/docs/numerics-schema.json"));
    std::vector<std::string> errors;
    test::validateJson(schema, Json::parse(text), "$", errors);
    return errors;
}

TEST(NumericsSchema, FixturesValidate) {
    for (const char* name : {"matmul_pass.json", "ragged_fail.json"}) {
        const auto errors = schemaErrors(test::readBytes(kData + name));
        EXPECT_TRUE(errors.empty()) << name << ": " << ::testing::PrintToString(errors);
    }
}

TEST(NumericsSchema, ValidatorCatchesMistakes) {
    Json doc = Json::parse(test::readBytes(kData + "matmul_pass.json"));
    doc["outputs"][0]["comparisons"]["nki_vs_exact"].erase("rtol");
    doc["outputs"][0]["comparisons"]["nki_vs_exact"]["passed"] = "yes";
    doc["surprise"] = 1;
    doc["format"] = "other";
    std::vector<std::string> errors;
    const Json schema = Json::parse(test::readBytes(std::string(KL_SOURCE_DIR) + "/docs/numerics-schema.json"));
    test::validateJson(schema, doc, "$", errors);
    EXPECT_EQ(errors.size(), 4u) << ::testing::PrintToString(errors);
}

TEST(NumericsCli, PassingRunPrintsTheTableAndExitsZero) {
    const CliResult r = numerics({"--from-json", kData + "matmul_pass.json"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("output  comparison"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GPU vs exact"), std::string::npos);
    EXPECT_NE(r.out.find("nc_matmul"), std::string::npos);
    EXPECT_NE(r.out.find("kernel.py:42"), std::string::npos);
    EXPECT_NE(r.out.find("Result: PASS"), std::string::npos);
}

TEST(NumericsCli, FailingRunExitsOneAndNamesTheWorstElements) {
    const CliResult r = numerics({"--from-json", kData + "ragged_fail.json"});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("Worst elements of out, NKI vs exact"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("kernel.py:27"), std::string::npos);
    EXPECT_NE(r.out.find("Result: FAIL"), std::string::npos);
}

TEST(NumericsCli, ErrorsExitTwo) {
    test::TempDir dir;
    const std::string bad = dir.file("bad.json");
    test::writeBytes(bad, R"({"format": "kernellens-numerics", "version": 1, "kernel": 3})");
    CliResult r = numerics({"--from-json", bad});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("kernel: expected a string"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
    EXPECT_EQ(numerics({"--from-json", dir.file("missing.json")}).code, 2);
    EXPECT_EQ(numerics({"--seed", "minus", "--from-json", kData + "matmul_pass.json"}).code, 2);
    EXPECT_EQ(numerics({"--rtol", "-1", "--from-json", kData + "matmul_pass.json"}).code, 2);
    EXPECT_EQ(numerics({}).code, 2); // nothing to run
    EXPECT_EQ(numerics({"--from-json", kData + "matmul_pass.json", "--bogus"}).code, 2);
    EXPECT_EQ(numerics({"--help"}).code, 0);
}

TEST(NumericsCli, JsonOutputIsTheDocumentAndValidates) {
    test::TempDir dir;
    const std::string out = dir.file("run.json");
    const CliResult r = numerics({"--from-json", kData + "ragged_fail.json", "--json", out});
    EXPECT_EQ(r.code, 1) << r.err;
    const std::string written = test::readBytes(out);
    EXPECT_EQ(written, test::readBytes(kData + "ragged_fail.json"));
    const auto errors = schemaErrors(written);
    EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
    // No temporary file of the atomic write is left beside it.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(NumericsCli, ReviewKeepsTheRun) {
    test::TempDir dir;
    const std::string review = dir.file("r.klreview");
    {
        ReviewFile file = test::makeReview(review);
        ASSERT_TRUE(file.tasks().addFromFolder(test::makeTaskFolder(dir.path(), "matmul")));
    }
    CliResult r = numerics({"--from-json", kData + "matmul_pass.json", "--review", review});
    EXPECT_EQ(r.code, 2); // no task folder and no --task: which task is it?
    EXPECT_NE(r.err.find("--task"), std::string::npos) << r.err;
    r = numerics({"--from-json", kData + "matmul_pass.json", "--review", review, "--task", "1"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("stored numerics run 1 for task 1"), std::string::npos) << r.err;
    auto file = ReviewFile::open(review);
    ASSERT_TRUE(file);
    auto runs = file->numericsRuns().list(1);
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_TRUE(runs->front().passed);
}

} // namespace
} // namespace kl::core
