// CudaScan: the light reading of a CUDA source the migration rules rely on.
#include "findings/CudaScan.h"

#include <gtest/gtest.h>

namespace kl::core::findings {
namespace {

const char* kSource = R"(// two kernels; only `target` is read
__global__ void other(float* y) { y[0] = 1.0f; }

__global__ void target(const float* __restrict__ x,
                       __half* out, int n)
{
    /* a block
       comment */
    __shared__ float tile[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.f, sq = 0.f;
    tile[threadIdx.x] = x[i];          // staging, no arithmetic
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        acc += tile[k] * 2.0f;
        sq = sq + tile[k];
    }
    out[i] = __float2half(acc);
}
)";

TEST(CudaScan, ReadsOnlyTheNamedKernelBody) {
    const CudaScan scan(kSource, "target");
    EXPECT_FALSE(scan.lines()[1].inKernel); // `other`
    EXPECT_FALSE(scan.lines()[3].inKernel); // the signature
    EXPECT_TRUE(scan.lines()[8].inKernel);
    EXPECT_FALSE(scan.lines()[20].inKernel); // the closing brace
    // Comments and lone braces are not code.
    const auto code = scan.kernelCodeLines();
    EXPECT_EQ(std::count(code.begin(), code.end(), 7), 0);
    EXPECT_EQ(std::count(code.begin(), code.end(), 19), 0);
}

TEST(CudaScan, DataLinesLeaveOutIndicesBarriersDeclarationsAndStaging) {
    const CudaScan scan(kSource, "target");
    // 13: float acc = 0.f, ... (no arithmetic); 14: staging copy; 17-18: arithmetic; 20: the output store.
    EXPECT_EQ(scan.dataLines(), (std::vector<int>{17, 18, 20}));
}

TEST(CudaScan, FindsBoundGuardsAndFloatAccumulation) {
    const CudaScan scan(kSource, "target");
    EXPECT_EQ(scan.boundGuards(), (std::vector<int>{11}));
    EXPECT_EQ(scan.floatAccumulations(), (std::vector<int>{17}));
}

TEST(CudaScan, AHalfAccumulatorIsNotAFloatOne) {
    const CudaScan scan("__global__ void k(__half* o) {\n  __half s = 0;\n  s += o[1];\n  o[0] = s;\n}\n", "");
    EXPECT_TRUE(scan.floatAccumulations().empty());
    EXPECT_EQ(scan.dataLines(), (std::vector<int>{3, 4}));
}

TEST(CudaScan, AnUnknownKernelNameReadsEveryKernel) {
    const CudaScan scan(kSource, "missing");
    EXPECT_TRUE(scan.lines()[1].inKernel == false); // a one-line kernel has no body lines of its own
    EXPECT_TRUE(scan.lines()[8].inKernel);
}

} // namespace
} // namespace kl::core::findings
