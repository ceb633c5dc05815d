#include "source/LinkSuggester.h"

#include "source/CudaLinkComments.h"

#include <gtest/gtest.h>

#include <algorithm>

using kl::core::LinkSuggester;
using kl::core::LinkSuggestion;

namespace {

const char* kCuda = R"(__global__ void k(const float* a, float* c) {   // 1
    __shared__ float As[32][33];                     // 2
    float acc = 0.0f;                                // 3
    for (int k0 = 0; k0 < 1024; k0 += 32) {          // 4
        As[threadIdx.y][threadIdx.x] = a[k0];        // 5
        __syncthreads();                             // 6
        for (int kk = 0; kk < 32; ++kk)              // 7
            acc += As[kk][threadIdx.y];              // 8
        __syncthreads();                             // 9
    }                                                // 10
    c[threadIdx.x] = acc;                            // 11
}
)";

const char* kNki = R"(def k(a):
    acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
    for k0 in nl.affine_range(8):
        a_tile = nl.ndarray((128, 128), dtype=nl.bfloat16)
        for kk in nl.affine_range(4):
            x = nl.load(a)

    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
)";

const LinkSuggestion* find(const std::vector<LinkSuggestion>& s, int cudaFirst, int nkiFirst) {
    const auto it = std::find_if(s.begin(), s.end(), [&](const LinkSuggestion& x) {
        return x.link.cudaFirst == cudaFirst && x.link.nkiFirst == nkiFirst;
    });
    return it == s.end() ? nullptr : &*it;
}

} // namespace

TEST(LinkSuggester, LoopsPairInOrderWithTheirBlocks) {
    const auto s = LinkSuggester::suggest(kCuda, kNki);
    const auto* outer = find(s, 4, 3);
    ASSERT_NE(outer, nullptr);
    EXPECT_EQ(outer->link.cudaLast, 10);
    EXPECT_EQ(outer->link.nkiLast, 6);
    EXPECT_EQ(outer->link.origin, kl::core::LinkOrigin::Suggestion);
    EXPECT_EQ(outer->link.state, kl::core::LinkState::Proposed);
    const auto* inner = find(s, 7, 5);
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->link.cudaLast, 8); // a braceless loop ends with its statement
    EXPECT_EQ(inner->link.nkiLast, 6);
}

TEST(LinkSuggester, SharedTilesGoToSbufAndAccumulatorsToPsum) {
    const auto s = LinkSuggester::suggest(kCuda, kNki);
    const auto* shared = find(s, 2, 4);
    ASSERT_NE(shared, nullptr);
    EXPECT_NE(shared->reason.find("SBUF"), std::string::npos);
    const auto* acc = find(s, 3, 2);
    ASSERT_NE(acc, nullptr);
    EXPECT_NE(acc->reason.find("PSUM"), std::string::npos);
    // The HBM output tensor is no SBUF tile.
    EXPECT_EQ(find(s, 2, 8), nullptr);
}

TEST(LinkSuggester, SyncthreadsHasNoCounterpartWithoutABarrier) {
    const auto s = LinkSuggester::suggest(kCuda, kNki);
    EXPECT_TRUE(
        std::none_of(s.begin(), s.end(), [](const auto& x) { return x.link.cudaFirst == 6 || x.link.cudaFirst == 9; }));
}

TEST(LinkSuggester, IdenticalNamesPair) {
    const std::string nki = "def k(a):\n    m0 = 3\n    n0 = 4\n";
    const std::string cuda = "int main() {\n  const int n0 = blockIdx.x * 32;\n  int m0 = 2;\n}\n";
    const auto s = LinkSuggester::suggest(cuda, nki);
    // 'm0' and 'n0' are too short to trust; rename and try again.
    EXPECT_TRUE(s.empty());
    const auto s2 = LinkSuggester::suggest("int main() {\n  const int row0 = 1;\n}\n", "def k(a):\n    row0 = 3\n");
    ASSERT_EQ(s2.size(), 1U);
    EXPECT_EQ(s2[0].link.cudaFirst, 2);
    EXPECT_EQ(s2[0].link.nkiFirst, 2);
    EXPECT_NE(s2[0].reason.find("row0"), std::string::npos);
}

TEST(LinkSuggester, ExistingLinksSuppressSuggestions) {
    const auto all = LinkSuggester::suggest(kCuda, kNki);
    const auto* outer = find(all, 4, 3);
    ASSERT_NE(outer, nullptr);
    const auto fewer = LinkSuggester::suggest(kCuda, kNki, {outer->link});
    EXPECT_EQ(fewer.size() + 1, all.size());
    EXPECT_EQ(find(fewer, 4, 3), nullptr);
}

TEST(LinkSuggester, EmptySourcesSuggestNothing) {
    EXPECT_TRUE(LinkSuggester::suggest("", kNki).empty());
    EXPECT_TRUE(LinkSuggester::suggest(kCuda, "").empty());
}
