// The numerics document reader (core/numerics): the contract's fixtures read with every figure, and hostile
// documents (wrong types, missing keys, huge arrays, absurd numbers, deep nesting) are errors naming the field.
#include "TestSupport.h"

#include "numerics/NumericsReader.h"
#include "numerics/NumericsTable.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace kl::core {
namespace {

using Json = nlohmann::json;

const std::string kData = std::string(KL_TEST_DATA_DIR) + "/numerics/";

Json fixture(const std::string& name) {
    return Json::parse(test::readBytes(kData + name));
}

/// The error message of reading `doc`, or "" when it reads.
std::string errorOf(const Json& doc) {
    auto r = parseNumericsDocument(doc.dump(), "doc.json");
    return r ? std::string() : r.error().message;
}

TEST(NumericsReader, ReadsThePassingFixture) {
    auto r = readNumericsFile(kData + "matmul_pass.json");
    ASSERT_TRUE(r) << formatError(r.error());
    EXPECT_EQ(r->kernel, "nki_matmul_basic_tiled");
    ASSERT_EQ(r->args.size(), 2u);
    EXPECT_EQ(r->args[1].shape, (std::vector<std::int64_t>{256, 512}));
    EXPECT_EQ(r->inputsKind, "normal");
    EXPECT_EQ(r->cudaNumerics, "tensor-core-bf16:16");
    ASSERT_EQ(r->outputs.size(), 1u);
    const NumericsOutput& out = r->outputs[0];
    ASSERT_TRUE(out.comparison(ComparisonKind::NkiVsGpu));
    EXPECT_DOUBLE_EQ(out.comparison(ComparisonKind::NkiVsExact)->maxAbsError, 0.0625);
    EXPECT_EQ(out.comparison(ComparisonKind::NkiVsExact)->worst[0].index, (std::vector<std::int64_t>{17, 300}));
    ASSERT_TRUE(out.heatmap);
    EXPECT_EQ(out.heatmap->rows, 4);
    EXPECT_EQ(out.heatmap->cols, 8);
    EXPECT_EQ(out.heatmap->absError.size(), 32u);
    EXPECT_EQ(out.heatmap->cellCols, 64);
    ASSERT_TRUE(out.histogram);
    EXPECT_EQ(out.histogram->counts.size() + 1, out.histogram->log10Edges.size());
    EXPECT_EQ(r->topErrorInstructions.at(0).line, 42);
    EXPECT_TRUE(r->passed());
    EXPECT_EQ(r->comparisonCount(), 3);
}

TEST(NumericsReader, NonFiniteStringsAreNumbers) {
    auto r = readNumericsFile(kData + "ragged_fail.json");
    ASSERT_TRUE(r) << formatError(r.error());
    const auto& c = *r->outputs[0].comparison(ComparisonKind::NkiVsExact);
    EXPECT_TRUE(std::isinf(c.maxRelError));
    EXPECT_TRUE(std::isnan(c.worst[1].value));
    EXPECT_FALSE(c.passed);
    EXPECT_FALSE(r->passed());
    EXPECT_EQ(r->failedCount(), 2);
    EXPECT_EQ(r->warnings.size(), 1u);
}

TEST(NumericsReader, NullComparisonIsAbsent) {
    Json doc = fixture("matmul_pass.json");
    doc["outputs"][0]["comparisons"]["gpu_vs_exact"] = nullptr;
    doc["outputs"][0]["comparisons"]["nki_vs_gpu"] = nullptr;
    doc["outputs"][0].erase("heatmap");
    auto r = parseNumericsDocument(doc.dump());
    ASSERT_TRUE(r) << formatError(r.error());
    EXPECT_FALSE(r->outputs[0].comparison(ComparisonKind::GpuVsExact));
    EXPECT_FALSE(r->outputs[0].heatmap);
    EXPECT_EQ(r->comparisonCount(), 1);
}

struct Hostile {
    const char* name;
    std::function<void(Json&)> spoil;
    const char* expected; ///< part of the message
};

class NumericsReaderHostile : public ::testing::TestWithParam<Hostile> {};

TEST_P(NumericsReaderHostile, IsAnErrorNamingTheField) {
    Json doc = fixture("matmul_pass.json");
    GetParam().spoil(doc);
    const std::string message = errorOf(doc);
    EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
}

Json& comparison(Json& doc) {
    return doc["outputs"][0]["comparisons"]["nki_vs_exact"];
}

INSTANTIATE_TEST_SUITE_P(
    Documents, NumericsReaderHostile,
    ::testing::Values(
        Hostile{"WrongFormat", [](Json& d) { d["format"] = "kernellens-ir"; }, "format: expected"},
        Hostile{"NewerVersion", [](Json& d) { d["version"] = 2; }, "newer than this KernelLens reads"},
        Hostile{"MissingOutputs", [](Json& d) { d.erase("outputs"); }, "outputs: missing"},
        Hostile{"MissingMaxAbs", [](Json& d) { comparison(d).erase("max_abs_error"); },
                "outputs[0].comparisons.nki_vs_exact.max_abs_error: missing"},
        Hostile{"StringMismatches", [](Json& d) { comparison(d)["mismatches"] = "12"; },
                "nki_vs_exact.mismatches: expected an integer"},
        Hostile{"NegativeMismatches", [](Json& d) { comparison(d)["mismatches"] = -3; }, "the number -3"},
        Hostile{"NegativeError", [](Json& d) { comparison(d)["rms_error"] = -1.0; }, "rms_error: expected"},
        Hostile{"PercentOver100", [](Json& d) { comparison(d)["mismatch_pct"] = 250; }, "mismatch_pct"},
        Hostile{"NanPercent", [](Json& d) { comparison(d)["mismatch_pct"] = "nan"; }, "mismatch_pct"},
        Hostile{"BadNonFiniteWord", [](Json& d) { comparison(d)["max_abs_error"] = "Infinity"; },
                "max_abs_error: expected"},
        Hostile{"PassedAsNumber", [](Json& d) { comparison(d)["passed"] = 1; }, "passed: expected true or false"},
        Hostile{"ComparisonString", [](Json& d) { comparison(d) = "ok"; }, "a comparison object or null"},
        Hostile{"HugeDimension", [](Json& d) { d["args"][0]["shape"][0] = 1e300; }, "args[0].shape[0]"},
        Hostile{"TooManyDims",
                [](Json& d) {
                    d["args"][0]["shape"] = Json::array({1, 1, 1, 1, 1, 1, 1, 1, 1});
                },
                "args[0].shape: expected an array of at most 8"},
        Hostile{"HugeWorstList",
                [](Json& d) {
                    Json w = comparison(d)["worst"][0];
                    comparison(d)["worst"] = Json::array();
                    for (int i = 0; i < 1000; ++i) {
                        comparison(d)["worst"].push_back(w);
                    }
                },
                "worst: expected an array of at most 64"},
        Hostile{"HeatmapTooBig", [](Json& d) { d["outputs"][0]["heatmap"]["rows"] = 100000; }, "heatmap.rows"},
        Hostile{"HeatmapShort", [](Json& d) { d["outputs"][0]["heatmap"]["abs_error"].erase(0); }, "rows x cols = 32"},
        Hostile{"HistogramMismatch", [](Json& d) { d["outputs"][0]["histogram"]["counts"].push_back(1); },
                "counts need"},
        Hostile{"LineHuge", [](Json& d) { d["top_error_instructions"][0]["line"] = 1LL << 40; },
                "top_error_instructions[0].line"},
        Hostile{"OpNotString", [](Json& d) { d["top_error_instructions"][0]["op"] = Json::array(); },
                "top_error_instructions[0].op: expected a string"},
        Hostile{"NotAnObject",
                [](Json& d) {
                    d = Json::array({1, 2});
                },
                "document: expected a JSON object"},
        Hostile{"DeepNesting",
                [](Json& d) {
                    Json deep = 1;
                    for (int i = 0; i < 40; ++i) {
                        deep = Json::array({deep});
                    }
                    d["warnings"] = deep;
                },
                "nested more than 16 levels"}),
    [](const ::testing::TestParamInfo<Hostile>& info) { return std::string(info.param.name); });

TEST(NumericsReader, RejectsTextThatIsNotJson) {
    auto r = parseNumericsDocument("{\"format\": ", "broken.json");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Parse);
    EXPECT_EQ(r.error().file, "broken.json");
    EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
}

TEST(NumericsReader, RejectsAnOversizedDocumentBeforeParsing) {
    const std::string big(NumericsLimits::kMaxBytes + 1, ' ');
    auto r = parseNumericsDocument(big);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("MiB"), std::string::npos);
}

TEST(NumericsTable, ListsEveryComparisonAndTheVerdict) {
    auto pass = readNumericsFile(kData + "matmul_pass.json");
    auto bad = readNumericsFile(kData + "ragged_fail.json");
    ASSERT_TRUE(pass && bad);
    const std::string ok = renderNumericsTable(*pass, false);
    EXPECT_NE(ok.find("NKI vs exact"), std::string::npos);
    EXPECT_NE(ok.find("NKI vs GPU"), std::string::npos);
    EXPECT_NE(ok.find("kernel.py:42"), std::string::npos);
    EXPECT_NE(ok.find("Result: PASS (3 of 3"), std::string::npos) << ok;
    EXPECT_EQ(ok.find("value_ms"), std::string::npos);
    const std::string failed = renderNumericsTable(*bad, false);
    EXPECT_NE(failed.find("FAIL"), std::string::npos);
    EXPECT_NE(failed.find("Result: FAIL (2 of 3"), std::string::npos) << failed;
    EXPECT_NE(failed.find("[5, 499]  value 41.25  expected 3.75"), std::string::npos) << failed;
    EXPECT_NE(failed.find("1536 (2.4%)"), std::string::npos) << failed;
    EXPECT_NE(failed.find("inf"), std::string::npos);
}

TEST(NumericsTable, ToleranceSummaryNamesStandardAndFigures) {
    auto pass = readNumericsFile(kData + "matmul_pass.json");
    ASSERT_TRUE(pass);
    EXPECT_EQ(toleranceSummary(*pass), "default (rtol 0.016, atol 1e-05)");
    pass->toleranceOverridden = true;
    EXPECT_EQ(toleranceSummary(*pass), "default (rtol 0.016, atol 1e-05, overridden)");
}

} // namespace
} // namespace kl::core
