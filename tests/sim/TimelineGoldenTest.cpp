// Golden text timelines of the small examples: what `kernellens-cli simulate <ir> --timeline 40` prints
// on trn1 (summary, blank line, timeline of the first 40 instructions). The IR files are checked in
// beside the expected text (tests/golden/timeline/<example>.ir.json, written by `kernellens-cli trace`),
// so the test does not need the Python front end. On mismatch the test writes <example>.txt.actual and
// prints a unified diff; KL_UPDATE_GOLDEN=1 rewrites the .expected files instead.
#include "TestIr.h"

#include "engine/Simulator.h"
#include "ir/IrLoader.h"
#include "output/TextReport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace kl::sim {
namespace {

const std::string kGoldenDir = std::string(KL_SOURCE_DIR) + "/tests/golden/timeline";

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

class TimelineGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(TimelineGolden, MatchesExpectedText) {
    const std::string name = GetParam();
    auto ir = IrLoader::loadFile(kGoldenDir + "/" + name + ".ir.json");
    ASSERT_TRUE(ir.has_value()) << formatError(ir.error());
    const HardwareProfile hw = test::profile("trn1");
    auto result = Simulator::run(*ir, hw);
    ASSERT_TRUE(result.has_value()) << formatError(result.error());
    const SimResult& r = **result;
    // Exactly what SimulateCommand writes for `--timeline 40`.
    const std::string actual = TextReport::summary(r) + "\n" + TextReport::timeline(r, 40);
    EXPECT_EQ(actual.find(KL_SOURCE_DIR), std::string::npos) << "absolute path in the output";

    const std::string expectedPath = kGoldenDir + "/" + name + ".txt.expected";
    const std::string actualPath = kGoldenDir + "/" + name + ".txt.actual";
    if (const char* update = std::getenv("KL_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
        writeBytes(expectedPath, actual);
        std::remove(actualPath.c_str());
        return;
    }
    const std::string expected = readBytes(expectedPath);
    if (expected == actual) {
        std::remove(actualPath.c_str());
        return;
    }
    writeBytes(actualPath, actual);
    std::fflush(stdout);
    const std::string command = "diff -u '" + expectedPath + "' '" + actualPath + "'";
    const int status = std::system(command.c_str());
    (void)status;
    ADD_FAILURE() << name << " timeline differs from " << expectedPath
                  << "; see the diff above, or run with KL_UPDATE_GOLDEN=1 to accept it (actual output in "
                  << actualPath << ")";
}

INSTANTIATE_TEST_SUITE_P(Examples, TimelineGolden,
                         ::testing::Values("vector_add_legacy", "vector_add_nki", "softmax", "rmsnorm", "transpose_2d",
                                           "attention_fused"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

} // namespace
} // namespace kl::sim
