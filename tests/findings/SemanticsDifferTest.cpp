// The semantics-differ rule: a numerics run whose NKI comparison fails gives one finding with the comparison's
// figures and the top-error instructions' lines as evidence, mapped to the rubric's numerics area; a passing run
// (or none) gives nothing. Through the engine and through `findings --numerics`.
#include "FindingsTestSupport.h"

#include "cli/Commands.h"
#include "engine/Simulator.h"
#include "findings/FindingsEngine.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "ir/IrLoader.h"
#include "numerics/NumericsReader.h"
#include "support/ResourcePaths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace kl::core::findings::test {
namespace {

using Json = nlohmann::json;

const std::string kData = std::string(KL_SOURCE_DIR) + "/tests/core/data/numerics/";
const std::string kGoldenIr = std::string(KL_SOURCE_DIR) + "/tests/golden/timeline/vector_add_nki.ir.json";

/// The findings of the golden vector-add IR on trn2 with `numerics` (a fixture name or an absolute path, or "" for
/// none).
std::vector<Finding> findingsWith(const std::string& numerics) {
    auto engine = FindingsEngine::createDefault();
    auto ir = sim::IrLoader::loadFile(kGoldenIr);
    auto path = sim::ProfileLocator::resolve("trn2", {dataRoot()});
    EXPECT_TRUE(engine && ir && path);
    auto profile = sim::HardwareProfile::loadFile(*path);
    auto result = sim::Simulator::run(*ir, *profile);
    EXPECT_TRUE(result);
    std::optional<NumericsResult> n;
    if (!numerics.empty()) {
        auto read = readNumericsFile(numerics.starts_with('/') ? numerics : kData + numerics);
        EXPECT_TRUE(read) << formatError(read.error());
        n = std::move(*read);
    }
    return engine->run(*ir, **result, *profile, nullptr, n ? &*n : nullptr);
}

const Finding* find(const std::vector<Finding>& all, std::string_view rule) {
    for (const Finding& f : all) {
        if (f.rule == rule) {
            return &f;
        }
    }
    return nullptr;
}

TEST(SemanticsDiffer, FailingRunGivesAFindingWithFiguresAndLines) {
    const auto all = findingsWith("ragged_fail.json");
    const Finding* f = find(all, "semantics-differ");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Major);
    EXPECT_EQ(f->rubricItem, "num.rounding");
    EXPECT_NE(f->title.find("NKI vs exact of out"), std::string::npos) << f->title;
    ASSERT_NE(f->figure("mismatch_pct"), nullptr);
    EXPECT_DOUBLE_EQ(f->figure("mismatch_pct")->value, 2.4);
    EXPECT_DOUBLE_EQ(f->figure("max_abs_error")->value, 37.5);
    EXPECT_DOUBLE_EQ(f->figure("rtol")->value, 1.3e-06);
    EXPECT_DOUBLE_EQ(f->figure("failed_comparisons")->value, 2); // NKI vs exact and NKI vs GPU
    ASSERT_GE(f->evidence.size(), 3u);
    EXPECT_NE(f->evidence[0].note.find("[5, 499]: 41.25 where 3.75 was expected"), std::string::npos)
        << f->evidence[0].note;
    ASSERT_EQ(f->evidence[1].lines.size(), 1u);
    EXPECT_EQ(f->evidence[1].lines[0], (SourceRange{SourceSide::Nki, "kernel.py", 27, 27}));
    EXPECT_NE(f->evidence[1].note.find("tensor_reduce"), std::string::npos);
}

TEST(SemanticsDiffer, AnInfiniteErrorIsNoFigureButSaysInfInTheEvidence) {
    // Rows a kernel never writes compare as NaN: the error has no number, and no stand-in number may appear.
    std::ifstream in(kData + "ragged_fail.json");
    Json doc = Json::parse(in);
    doc["outputs"][0]["comparisons"]["nki_vs_exact"]["max_abs_error"] = "inf";
    const std::string path = ::testing::TempDir() + "/ragged_inf.json";
    std::ofstream(path) << doc.dump();
    const auto all = findingsWith(path);
    const Finding* f = find(all, "semantics-differ");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->figure("max_abs_error"), nullptr);
    ASSERT_NE(f->figure("mismatch_pct"), nullptr); // the figures that have numbers stay
    EXPECT_NE(f->evidence[0].note.find("max abs error inf"), std::string::npos) << f->evidence[0].note;
}

TEST(SemanticsDiffer, PassingRunOrNoRunGivesNothing) {
    EXPECT_EQ(find(findingsWith("matmul_pass.json"), "semantics-differ"), nullptr);
    EXPECT_EQ(find(findingsWith(""), "semantics-differ"), nullptr);
}

TEST(SemanticsDiffer, FindingsCommandReadsTheNumericsDocument) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code =
        kl::app::runFindingsCommand({"--ir", kGoldenIr, "--numerics", kData + "ragged_fail.json", "--json", "-"});
    const std::string out = ::testing::internal::GetCapturedStdout();
    const std::string err = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(code, 0) << err;
    const Json doc = Json::parse(out);
    bool found = false;
    for (const Json& f : doc["findings"]) {
        found = found || f["rule"] == "semantics-differ";
    }
    EXPECT_TRUE(found) << out;
    EXPECT_NE(err.find("semantics-differ"), std::string::npos);

    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int bad = kl::app::runFindingsCommand({"--ir", kGoldenIr, "--numerics", kData + "missing.json"});
    (void)::testing::internal::GetCapturedStdout();
    const std::string badErr = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(bad, 2);
    EXPECT_NE(badErr.find("missing.json"), std::string::npos) << badErr;
}

} // namespace
} // namespace kl::core::findings::test
