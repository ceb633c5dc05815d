// `kernellens-cli numerics` for real: the sandboxed front end in value mode on bundled examples. A correct
// example passes and its --json validates against docs/numerics-schema.json; the deliberately wrong one fails
// with its worst elements in the rows it never computes; a bad reference or policy is an error (exit 2) that
// names the problem; --review keeps the run. Needs Python with NumPy (KL_PYTHON).
#include "NumericsCliRun.h"
#include "JsonSchemaCheck.h"
#include "TestSupport.h"

#include "cli/Commands.h"
#include "numerics/NumericsReader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core {
namespace {

using Json = nlohmann::json;

const std::string kExamples = std::string(KL_SOURCE_DIR) + "/examples/";

using CliResult = test::NumericsCliResult;

CliResult numerics(const std::vector<std::string>& args) {
    return test::runNumericsCli(args);
}

TEST(NumericsEndToEnd, SoftmaxPassesAndItsJsonValidates) {
    test::TempDir dir;
    const std::string json = dir.file("softmax.json");
    const CliResult r = numerics({kExamples + "softmax", "--seed", "3", "--json", json});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("NKI vs exact"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Result: PASS"), std::string::npos) << r.out;
    const std::string text = test::readBytes(json);
    const Json schema = Json::parse(test::readBytes(std::string(KL_SOURCE_DIR) + "/docs/numerics-schema.json"));
    std::vector<std::string> errors;
    test::validateJson(schema, Json::parse(text), "$", errors);
    EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
    auto doc = parseNumericsDocument(text);
    ASSERT_TRUE(doc) << formatError(doc.error());
    EXPECT_EQ(doc->seed, 3);
    EXPECT_EQ(doc->kernel, "nki_softmax"); // the task's kernel, traced and run on values
    EXPECT_TRUE(doc->passed());
    EXPECT_GE(doc->comparisonCount(), 2);
}

TEST(NumericsEndToEnd, TheDeliberatelyWrongExampleFailsWhereItIsWrong) {
    test::TempDir dir;
    const std::string review = dir.file("r.klreview");
    (void)test::makeReview(review);
    const CliResult r = numerics({kExamples + "ragged_rows_wrong", "--review", review});
    ASSERT_EQ(r.code, 1) << r.err << r.out;
    EXPECT_NE(r.out.find("Worst elements of out, NKI vs exact"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  [256, "), std::string::npos) << r.out; // the first row the kernel never computes
    EXPECT_NE(r.out.find("Result: FAIL"), std::string::npos);
    auto file = ReviewFile::open(review);
    ASSERT_TRUE(file);
    auto tasks = file->tasks().list();
    ASSERT_TRUE(tasks);
    ASSERT_EQ(tasks->size(), 1u); // added for the run
    EXPECT_EQ(tasks->front().folder, "ragged_rows_wrong");
    auto runs = file->numericsRuns().list(tasks->front().id);
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_FALSE(runs->front().passed);
}

TEST(NumericsEndToEnd, BadReferenceAndPolicyAreErrors) {
    test::TempDir dir;
    const std::string ref = dir.file("raising_ref.py");
    test::writeBytes(ref, "def ref(x):\n    raise ValueError('no reference today')\n");
    CliResult r = numerics({kExamples + "softmax", "--reference", ref + ":ref"});
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.err.find("no reference today"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("raising_ref.py"), std::string::npos) << r.err;
    r = numerics({kExamples + "softmax", "--cuda-numerics", "warp-magic"});
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.err.find("warp-magic"), std::string::npos) << r.err;
}

} // namespace
} // namespace kl::core
