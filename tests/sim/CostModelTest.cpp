#include "TestIr.h"

#include "engine/CostModel.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

namespace {

/// Cycles of a single instruction `op` writing [128, n] of `dtype` from [128, n] sources.
double cyclesOf(const std::string& op, const std::string& engine, std::int64_t n, const std::string& dtype = "bfloat16",
                TestIr::Json attrs = TestIr::Json::object(), int srcCount = 1, const std::string& srcMemory = "sbuf") {
    TestIr t;
    const int d = t.buffer("d", "sbuf", {128, n}, dtype);
    std::vector<TestIr::Json> srcs;
    for (int i = 0; i < srcCount; ++i) {
        srcs.push_back(t.whole(t.buffer("s", srcMemory, {128, n}, dtype)));
    }
    t.add(op, engine, {t.whole(d)}, srcs, attrs);
    const KernelIr ir = t.load();
    const HardwareProfile hw = profile("trn1");
    return CostModel(hw).cycles(ir, ir.instructions()[0]);
}

} // namespace

TEST(CostModel, ElementwiseIsMaxOfMinIiAndN) {
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_scalar", "vector", 512), 512);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_scalar", "vector", 32), 64);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_copy", "vector", 1000), 1000);
    EXPECT_DOUBLE_EQ(cyclesOf("activation", "scalar", 200), 200);
    EXPECT_DOUBLE_EQ(cyclesOf("memset", "gpsimd", 1), 64);
}

TEST(CostModel, TensorTensorFastAndSlowPaths) {
    // BF16 add in SBUF, contiguous: N.  FP32 in SBUF: 2N.  One input in PSUM: N.
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_tensor", "vector", 512, "bfloat16", {{"op0", "add"}}, 2), 512);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_tensor", "vector", 512, "float32", {{"op0", "add"}}, 2), 1024);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_tensor", "vector", 512, "bfloat16", {{"op0", "divide"}}, 2), 1024);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_tensor", "vector", 512, "float32", {{"op0", "add"}}, 2, "psum"), 512);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_tensor", "vector", 16, "float32", {{"op0", "add"}}, 2), 64);
}

TEST(CostModel, ReductionsAndStatistics) {
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_reduce", "vector", 512, "bfloat16", {{"op0", "add"}}), 256);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_reduce", "vector", 512, "bfloat16", {{"op0", "max"}}), 256);
    EXPECT_DOUBLE_EQ(cyclesOf("tensor_reduce", "vector", 512, "float32", {{"op0", "add"}}), 512);
    EXPECT_DOUBLE_EQ(cyclesOf("activation_reduce", "scalar", 512), 512 + 64);
    EXPECT_DOUBLE_EQ(cyclesOf("activation_reduce", "scalar", 10), 64 + 64);
    EXPECT_DOUBLE_EQ(cyclesOf("bn_stats", "vector", 300), 300);
    EXPECT_DOUBLE_EQ(cyclesOf("bn_aggr", "vector", 30), 130);
    EXPECT_DOUBLE_EQ(cyclesOf("bn_aggr", "vector", 6), 64);
    EXPECT_DOUBLE_EQ(cyclesOf("reciprocal", "vector", 16), 128);
    EXPECT_DOUBLE_EQ(cyclesOf("reciprocal", "vector", 4), 64);
}

TEST(CostModel, GpSimdStartup) {
    EXPECT_DOUBLE_EQ(cyclesOf("iota", "gpsimd", 512, "int32", TestIr::Json::object(), 0), 150 + 512);
    EXPECT_DOUBLE_EQ(cyclesOf("affine_select", "gpsimd", 10), 160);
}

TEST(CostModel, MatmulAndTranspose) {
    const HardwareProfile hw = profile("trn1");
    TestIr t;
    const int st = t.buffer("stationary", "sbuf", {128, 128});
    const int mv = t.buffer("moving", "sbuf", {128, 512});
    const int mvSmall = t.buffer("moving_small", "sbuf", {128, 32});
    const int st32 = t.buffer("stationary32", "sbuf", {128, 128}, "float32");
    const int mv32 = t.buffer("moving32", "sbuf", {128, 512}, "float32");
    const int ps = t.buffer("acc", "psum", {128, 512}, "float32");
    const int tr = t.buffer("tr", "psum", {128, 128}, "float32");
    const int trSmall = t.buffer("trs", "psum", {16, 32}, "float32");
    t.add("nc_matmul", "tensor", {t.whole(ps)}, {t.whole(st), t.whole(mv)});
    t.add("nc_matmul", "tensor", {t.part(ps, 0, 128, 0, 32)}, {t.whole(st), t.whole(mvSmall)});
    t.add("nc_matmul", "tensor", {t.whole(ps)}, {t.whole(st32), t.whole(mv32)});
    t.add("nc_transpose", "tensor", {t.whole(tr)}, {t.whole(st)});
    t.add("nc_transpose", "tensor", {t.whole(trSmall)}, {t.part(mvSmall, 0, 32, 0, 16)});
    const KernelIr ir = t.load();
    const CostModel cost(hw);
    const auto& in = ir.instructions();
    const auto bf16 = cost.matmul(ir, in[0]);
    EXPECT_DOUBLE_EQ(bf16.multiplyMoving, 512);
    EXPECT_DOUBLE_EQ(bf16.loadStationary, 32); // 128 wide, 4x faster than an MM of the same size
    EXPECT_DOUBLE_EQ(bf16.flops, 2.0 * 128 * 128 * 512);
    EXPECT_DOUBLE_EQ(cost.matmul(ir, in[1]).multiplyMoving, 64); // max(N_moving, 64)
    const auto fp32 = cost.matmul(ir, in[2]);
    EXPECT_DOUBLE_EQ(fp32.multiplyMoving, 2048);
    EXPECT_DOUBLE_EQ(fp32.loadStationary, 128);
    EXPECT_DOUBLE_EQ(cost.cycles(ir, in[3]), 128); // max(P=128, min(64, F=128))
    EXPECT_DOUBLE_EQ(cost.cycles(ir, in[4]), 32);  // max(P=32, min(64, F=16))
    // 512 cycles at 2.8 GHz = 182857.14 ps, rounded up.
    EXPECT_EQ(cost.toPs(512, Engine::Tensor), 182858);
    EXPECT_EQ(cost.toPs(64, Engine::Vector), 57143);
}

} // namespace kl::sim::test
