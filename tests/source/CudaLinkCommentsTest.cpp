#include "source/CudaLinkComments.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using kl::core::parseCudaLinkComments;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(CudaLinkComments, TrailingCommentLinksItsOwnLine) {
    const auto parsed = parseCudaLinkComments("x = 1\ny = nl.load(a)  # cuda: 12\nz = 3  # cuda: 4 - 9\n", 40);
    ASSERT_EQ(parsed.links.size(), 2U);
    EXPECT_TRUE(parsed.warnings.empty());
    EXPECT_EQ(parsed.links[0].nkiFirst, 2);
    EXPECT_EQ(parsed.links[0].nkiLast, 2);
    EXPECT_EQ(parsed.links[0].cudaFirst, 12);
    EXPECT_EQ(parsed.links[0].cudaLast, 12);
    EXPECT_EQ(parsed.links[1].cudaFirst, 4);
    EXPECT_EQ(parsed.links[1].cudaLast, 9);
    EXPECT_EQ(parsed.links[1].origin, kl::core::LinkOrigin::Comment);
}

TEST(CudaLinkComments, OwnLineCommentCoversTheNextBlock) {
    const std::string src = "def k():\n"                           // 1
                            "    # cuda: 25-34\n"                  // 2
                            "\n"                                   // 3
                            "    for k in nl.affine_range(4):\n"   // 4
                            "        a = nl.load(x)  # cuda: 26\n" // 5
                            "\n"                                   // 6
                            "        b = f(a,\n"                   // 7
                            "              c)\n"                   // 8
                            "    y = 2\n";                         // 9
    const auto parsed = parseCudaLinkComments(src, 40);
    ASSERT_EQ(parsed.links.size(), 2U);
    EXPECT_EQ(parsed.links[0].nkiFirst, 4);
    EXPECT_EQ(parsed.links[0].nkiLast, 8);
    EXPECT_EQ(parsed.links[1].nkiFirst, 5);
}

TEST(CudaLinkComments, OwnLineCommentOnAMultiLineStatement) {
    const auto parsed = parseCudaLinkComments("# cuda: 3\nx = f(1,\n      2)\ny = 1\n", 10);
    ASSERT_EQ(parsed.links.size(), 1U);
    EXPECT_EQ(parsed.links[0].nkiFirst, 2);
    EXPECT_EQ(parsed.links[0].nkiLast, 3);
}

struct Malformed {
    const char* text;
    const char* expect; ///< a fragment of the warning
};

class MalformedComment : public testing::TestWithParam<Malformed> {};

TEST_P(MalformedComment, IsAWarningAndTheRestStillParses) {
    const std::string src = std::string("a = 1  ") + GetParam().text + "\nb = 2  # cuda: 3\n";
    const auto parsed = parseCudaLinkComments(src, 20);
    ASSERT_EQ(parsed.warnings.size(), 1U) << GetParam().text;
    EXPECT_EQ(parsed.warnings[0].line, 1);
    EXPECT_NE(parsed.warnings[0].message.find(GetParam().expect), std::string::npos) << parsed.warnings[0].message;
    ASSERT_EQ(parsed.links.size(), 1U);
    EXPECT_EQ(parsed.links[0].nkiFirst, 2);
}

INSTANTIATE_TEST_SUITE_P(
    CudaLinkComments, MalformedComment,
    testing::Values(Malformed{"# cuda: twelve", "not a CUDA line"}, Malformed{"# cuda:", "not a CUDA line"},
                    Malformed{"# cuda: 3-", "not a CUDA line"}, Malformed{"# cuda: 1-2-3", "not a CUDA line"},
                    Malformed{"# cuda: 9-3", "reversed"}, Malformed{"# cuda: 15-25", "outside the CUDA file"},
                    Malformed{"# cuda: 0", "outside the CUDA file"}, Malformed{"# cuda: 99", "outside the CUDA file"}));

TEST(CudaLinkComments, HashInsideAStringIsNotAComment) {
    const auto parsed = parseCudaLinkComments("s = '# cuda: 3'\nt = \"#\"  # cuda: 4\n", 10);
    ASSERT_EQ(parsed.links.size(), 1U);
    EXPECT_EQ(parsed.links[0].nkiFirst, 2);
    EXPECT_EQ(parsed.links[0].cudaFirst, 4);
}

TEST(CudaLinkComments, UnknownCudaLengthSkipsTheRangeCheck) {
    const auto parsed = parseCudaLinkComments("a = 1  # cuda: 500\n", 0);
    EXPECT_EQ(parsed.links.size(), 1U);
    EXPECT_TRUE(parsed.warnings.empty());
}

TEST(CudaLinkComments, ExampleMatmulParsesCleanly) {
    const auto nki = readFile(KL_SOURCE_DIR "/examples/matmul_basic_tiled/kernel.py");
    const auto cuda = readFile(KL_SOURCE_DIR "/examples/matmul_basic_tiled/kernel.cu");
    const auto parsed = parseCudaLinkComments(nki, kl::core::countLines(cuda));
    EXPECT_TRUE(parsed.warnings.empty());
    EXPECT_EQ(parsed.links.size(), 9U);
    // `# cuda: 25-34` on its own line covers the whole k loop.
    const auto block = std::find_if(parsed.links.begin(), parsed.links.end(),
                                    [](const auto& l) { return l.cudaFirst == 25 && l.cudaLast == 34; });
    ASSERT_NE(block, parsed.links.end());
    EXPECT_LT(block->nkiFirst, block->nkiLast);
    EXPECT_GE(block->nkiLast - block->nkiFirst, 6);
}
