// What the rules say about the bundled examples (docs/findings.md, "Precision"): the naive matmul shows its real
// bottleneck (DMA: small transfers, reloads), the optimized one does not, and the memory-bound examples that run
// near the DMA roof get nothing but the roofline.
#include "FindingsTestSupport.h"

#include <gtest/gtest.h>

namespace kl::core::findings::test {
namespace {

std::string example(const std::string& name) {
    return std::string(KL_SOURCE_DIR) + "/examples/" + name;
}

/// The examples name their hardware in task.json; "" keeps it.
std::optional<Analysed> analyseExample(const std::string& name) {
    return analyse(example(name), {}, {}, "");
}

TEST(Examples, NaiveMatmulShowsItsDmaBottleneck) {
    const auto a = analyseExample("matmul_basic_tiled");
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->has("dma-small-transfers")) << a->summary();
    EXPECT_TRUE(a->has("redundant-loads")) << a->summary();
    ASSERT_TRUE(a->has("engine-bound")) << a->summary();
    EXPECT_NE(a->find("engine-bound")->title.find("DMA-bound"), std::string::npos);
    EXPECT_EQ(a->find("dma-small-transfers")->severity, Severity::Major);
    EXPECT_NE(a->find("roofline")->title.find("memory-bound"), std::string::npos);
}

TEST(Examples, OptimizedMatmulHasNoDmaFindings) {
    const auto a = analyseExample("matmul_optimized");
    ASSERT_TRUE(a);
    for (const char* rule : {"exposed-dma", "dma-small-transfers", "redundant-loads", "engine-bound"}) {
        EXPECT_FALSE(a->has(rule)) << rule << ": " << a->summary();
    }
    EXPECT_NE(a->find("roofline")->title.find("compute-bound"), std::string::npos);
    EXPECT_EQ(a->find("roofline")->severity, Severity::Nit);
    // Its K blocks are summed into a bfloat16 SBUF tile while the CUDA kernel keeps a float accumulator.
    EXPECT_TRUE(a->has("accumulate-low-precision")) << a->summary();
}

TEST(Examples, MemoryBoundExamplesNearTheRoofGetOnlyTheRoofline) {
    for (const char* name : {"vector_add_nki", "vector_add_legacy", "softmax", "rmsnorm"}) {
        const auto a = analyseExample(name);
        ASSERT_TRUE(a) << name;
        ASSERT_EQ(a->findings.size(), 1u) << name << ": " << a->summary();
        EXPECT_EQ(a->findings.front().rule, "roofline");
        EXPECT_EQ(a->findings.front().severity, Severity::Nit) << name;
    }
}

} // namespace
} // namespace kl::core::findings::test
