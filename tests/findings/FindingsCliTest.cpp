// `kernellens-cli findings`, called in-process: exit codes, the readable list and the JSON.
#include "FindingsTestSupport.h"

#include "cli/Commands.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace kl::core::findings::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct CliResult {
    int code;
    std::string out;
    std::string err;
};

CliResult findings(const std::vector<std::string>& args) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = kl::app::runFindingsCommand(args);
    std::string out = ::testing::internal::GetCapturedStdout();
    std::string err = ::testing::internal::GetCapturedStderr();
    return {code, out, err};
}

const std::string kGoldenIr = std::string(KL_SOURCE_DIR) + "/tests/golden/timeline/vector_add_nki.ir.json";

fs::path scratch(const std::string& name) {
    return fs::temp_directory_path() / ("kl-findings-cli-" + std::to_string(::getpid()) + "-" + name);
}

TEST(FindingsCli, HelpListsTheRules) {
    const auto r = findings({"--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("kernellens-cli findings"), std::string::npos);
    EXPECT_NE(r.out.find("exposed-dma"), std::string::npos);
    EXPECT_NE(r.out.find("roofline"), std::string::npos);
}

TEST(FindingsCli, UsageErrorsExitTwo) {
    EXPECT_EQ(findings({}).code, 2);
    EXPECT_EQ(findings({"--ir"}).code, 2);
    EXPECT_EQ(findings({kernelsDir() + "/rowsum_tail", "--bogus"}).code, 2);
    EXPECT_EQ(findings({"--ir", kGoldenIr, kernelsDir() + "/rowsum_tail"}).code, 2);
    EXPECT_EQ(findings({"--ir", kGoldenIr, "--hw", "trn9"}).code, 2);
    EXPECT_EQ(findings({"--ir", kGoldenIr, "--rules", scratch("none.json").string()}).code, 2);
}

TEST(FindingsCli, AKernelThatDoesNotLoadExitsOne) {
    const fs::path bad = scratch("bad.ir.json");
    std::ofstream(bad) << "{\"ir_version\": 1, \"instructions\": [";
    const auto r = findings({"--ir", bad.string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_FALSE(r.err.empty());
    fs::remove(bad);
}

TEST(FindingsCli, IrRunsWriteTheListAndTheJson) {
    const fs::path out = scratch("out.json");
    const auto r = findings({"--ir", kGoldenIr, "--json", out.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("Findings for nki_vector_add on trn2"), std::string::npos) << r.out;
    const Json doc = Json::parse(std::ifstream(out));
    EXPECT_EQ(doc["schema_version"], 1);
    EXPECT_EQ(doc["hardware"], "trn2");
    ASSERT_FALSE(doc["findings"].empty());
    for (const Json& f : doc["findings"]) {
        for (const char* key : {"rule", "title", "severity", "rubric_item", "figures", "evidence", "suggestion"}) {
            EXPECT_TRUE(f.contains(key)) << key;
        }
    }
    fs::remove(out);
}

TEST(FindingsCli, JsonOnStdoutMovesTheListToStderr) {
    const auto r = findings({"--ir", kGoldenIr, "--json", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out, nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.out;
    EXPECT_NE(r.err.find("Findings for"), std::string::npos);
}

TEST(FindingsCli, ATaskFolderReachesTheMigrationRulesAndFindingsStillExitZero) {
    const auto r = findings({kernelsDir() + "/rowsum_tail"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("blocking tail-not-handled"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("kernel.cu:6"), std::string::npos) << r.out;
}

TEST(FindingsCli, AKernelFileTakesTheTraceFlags) {
    const auto r = findings({kernelsDir() + "/small_transfers.py", "--kernel", "narrow_tiles", "--arg",
                             "a=512x2048:float32", "--arg", "b=512x2048:float32", "--hw", "trn2"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("dma-small-transfers"), std::string::npos) << r.out;
}

TEST(FindingsCli, TheListShowsNoEscapeSequenceFromTheKernel) {
    // An IR whose kernel and file names carry terminal escapes (clear screen, retitle the window) and a newline.
    std::ifstream in(kGoldenIr);
    std::string ir((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto replace = [&](const std::string& from, const std::string& to) {
        const auto at = ir.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        ir.replace(at, from.size(), to);
    };
    replace(R"("name":"nki_vector_add")", R"("name":"nki_\u001b]0;pwned\u0007vector\nadd")");
    replace(R"("files":["kernel.py"])", R"("files":["ker\u001b[2Jnel.py"])");
    const fs::path hostile = scratch("hostile.ir.json");
    std::ofstream(hostile) << ir;
    const auto r = findings({"--ir", hostile.string()});
    fs::remove(hostile);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
    // The name stays on the heading's line, its control characters shown as U+FFFD.
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_NE(r.out.find("Findings for nki_" + fffd + "]0;pwned" + fffd + "vector" + fffd + "add on trn2"),
              std::string::npos)
        << r.out;
}

TEST(FindingsCli, AKernelThatFailsToTraceExitsOne) {
    const auto r =
        findings({kernelsDir() + "/small_transfers.py", "--kernel", "no_such_kernel", "--arg", "a=512x2048:float32"});
    EXPECT_EQ(r.code, 1) << r.out;
}

} // namespace
} // namespace kl::core::findings::test
