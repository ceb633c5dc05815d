#include "TestIr.h"

#include "engine/CostModel.h"
#include "engine/OpCostTable.h"
#include "engine/Simulator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace kl::sim::test {

namespace {

struct Case {
    std::string op = "tensor_copy";
    std::string engine = "vector";
    std::int64_t n = 512;
    std::string dtype = "bfloat16";
    TestIr::Json attrs = TestIr::Json::object();
    int srcCount = 1;
    std::string srcMemory = "sbuf";
    std::string hw = "trn1";
    std::string dstDtype; ///< empty: as `dtype`
    bool strided = false; ///< sources read every other element
};

/// Cycles of one instruction writing [128, n] from `srcCount` [128, n] (or [128, 2n] read with stride 2) sources.
double cycles(const Case& c) {
    TestIr t;
    const int d = t.buffer("d", "sbuf", {128, c.n}, c.dstDtype.empty() ? c.dtype : c.dstDtype);
    std::vector<TestIr::Json> srcs;
    for (int i = 0; i < c.srcCount; ++i) {
        const int s = t.buffer("s", c.srcMemory, {128, c.strided ? 2 * c.n : c.n}, c.dtype);
        TestIr::Json ap = t.whole(s);
        if (c.strided) {
            ap["pattern"] = TestIr::Json::array({TestIr::Json::array({2, c.n})});
        }
        srcs.push_back(ap);
    }
    t.add(c.op, c.engine, {t.whole(d)}, srcs, c.attrs);
    const KernelIr ir = t.load();
    const HardwareProfile hw = profile(c.hw);
    return CostModel(hw).cycles(ir, ir.instructions()[0]);
}

} // namespace

TEST(OpCostTable, EveryOpHasOneRowWithASourceAndIsInTheDocsTable) {
    std::ifstream in(std::string(KL_SOURCE_DIR) + "/docs/simulator.md");
    std::stringstream doc;
    doc << in.rdbuf();
    for (std::size_t i = 0; i < kOpCosts.size(); ++i) {
        const OpCostRow& row = kOpCosts[i];
        EXPECT_EQ(static_cast<std::size_t>(row.op), i);
        EXPECT_GT(row.source.size(), 20u) << opName(row.op);
        EXPECT_EQ(row.evidence == CostEvidence::Assumed, row.source.starts_with("ASSUMPTION:")) << opName(row.op);
        // docs/simulator.md "Instruction costs" has one row per op, starting with the op's name in backquotes.
        const std::string cell = "| `" + std::string(opName(row.op)) + "`";
        EXPECT_NE(doc.str().find(cell), std::string::npos) << cell << " missing from docs/simulator.md";
    }
}

TEST(OpCostTable, DefaultEnginesComeFromTheOpTable) {
    // ops.def gives each op its engine; a DMA-costed op runs on the DMA queues and nothing else does.
    EXPECT_EQ(opDefaultEngine(Op::NcMatmul), Engine::Tensor);
    EXPECT_EQ(opDefaultEngine(Op::Activation), Engine::Scalar);
    EXPECT_EQ(opDefaultEngine(Op::Iota), Engine::GpSimd);
    EXPECT_EQ(opDefaultEngine(Op::TensorTensor), Engine::Vector);
    for (const OpCostRow& row : kOpCosts) {
        EXPECT_EQ(row.formula == CostFormula::Dma, opDefaultEngine(row.op) == Engine::Dma) << opName(row.op);
        EXPECT_EQ(parseOp(opName(row.op)), row.op);
    }
}

TEST(OpCostTable, VectorEnginePerformanceModeOnTrn2) {
    // Trainium2 guide: 4x for BF16 copies contiguous in SBUF, 2x strided or from PSUM; none on trn1 or for fp32.
    EXPECT_DOUBLE_EQ(cycles({.hw = "trn1"}), 512);
    EXPECT_DOUBLE_EQ(cycles({.hw = "trn2"}), 128);
    EXPECT_DOUBLE_EQ(cycles({.hw = "trn2", .strided = true}), 256);
    EXPECT_DOUBLE_EQ(cycles({.srcMemory = "psum", .hw = "trn2"}), 256);
    EXPECT_DOUBLE_EQ(cycles({.dtype = "float32", .hw = "trn2"}), 512);
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_scalar", .hw = "trn2"}), 128);
    EXPECT_DOUBLE_EQ(cycles({.n = 128, .hw = "trn2"}), 64); // MIN_II still bounds it
    // tensor_tensor: 2x with both inputs in SBUF and every tensor BF16/FP16.
    const TestIr::Json add = {{"op0", "add"}};
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor", .attrs = add, .srcCount = 2, .hw = "trn1"}), 512);
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor", .attrs = add, .srcCount = 2, .hw = "trn2"}), 256);
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor", .dtype = "float32", .attrs = add, .srcCount = 2, .hw = "trn2"}),
                     1024);
    // A BF16 add writing fp32 is off the trn1 fast path (input/output all bfloat16), and out of the trn2 mode.
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor", .attrs = add, .srcCount = 2, .hw = "trn1", .dstDtype = "float32"}),
                     1024);
}

TEST(OpCostTable, ScalarEnginePerformanceModeOnlyOnTrn3) {
    EXPECT_DOUBLE_EQ(cycles({.engine = "scalar", .hw = "trn2"}), 512);
    EXPECT_DOUBLE_EQ(cycles({.engine = "scalar", .hw = "trn3"}), 256);
    EXPECT_DOUBLE_EQ(cycles({.op = "activation", .engine = "scalar", .hw = "trn3"}), 512); // not for activation
    EXPECT_DOUBLE_EQ(cycles({.engine = "gpsimd", .hw = "trn3"}), 512);                     // nor on GpSimd
}

TEST(OpCostTable, DocumentedPerInstructionRules) {
    // memset: N/2 for a zero fill of BF16/FP16, else N.
    EXPECT_DOUBLE_EQ(cycles({.op = "memset", .attrs = {{"value", 0}}, .srcCount = 0}), 256);
    EXPECT_DOUBLE_EQ(cycles({.op = "memset", .attrs = {{"value", 1.5}}, .srcCount = 0}), 512);
    EXPECT_DOUBLE_EQ(cycles({.op = "memset", .dtype = "float32", .attrs = {{"value", 0}}, .srcCount = 0}), 512);
    // tensor_tensor_scan: 2N; nc_transpose on VectorE: max(MIN_II, N).
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor_scan", .srcCount = 2}), 1024);
    EXPECT_DOUBLE_EQ(cycles({.op = "nc_transpose", .n = 32}), 64);
    // scalar_tensor_tensor: N for BF16 subtract-then-multiply with N even, else 2N.
    const TestIr::Json stt = {{"isa", "scalar_tensor_tensor"}, {"op0", "subtract"}, {"op1", "multiply"}};
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor", .attrs = stt, .srcCount = 2}), 512);
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_tensor", .n = 511, .attrs = stt, .srcCount = 2}), 1022);
    // tensor_scalar_reduce: max(MIN_II, N) + MIN_II; range_select: max(MIN_II, N).
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_scalar", .attrs = {{"isa", "tensor_scalar_reduce"}}}), 512 + 64);
    EXPECT_DOUBLE_EQ(cycles({.op = "select", .attrs = {{"isa", "range_select"}}}), 512);
    // reciprocal: 8N on VectorE, N on ScalarE.
    EXPECT_DOUBLE_EQ(cycles({.op = "reciprocal", .n = 100}), 800);
    EXPECT_DOUBLE_EQ(cycles({.op = "reciprocal", .engine = "scalar", .n = 100}), 100);
}

TEST(OpCostTable, AssumedSelectIsAPredicatedCopy) {
    // No published select cost: as tensor_copy_predicated, N with a PSUM operand, else 2N.
    EXPECT_DOUBLE_EQ(cycles({.op = "select", .srcCount = 2}), 1024);
    EXPECT_DOUBLE_EQ(cycles({.op = "select", .srcCount = 2, .srcMemory = "psum"}), 512);
    EXPECT_DOUBLE_EQ(cycles({.op = "tensor_copy", .attrs = {{"isa", "tensor_copy_predicated"}}, .srcCount = 2}), 1024);
}

TEST(OpCostTable, MatmulFloorFollowsTheStationaryTileAndFp32TransposeAndMx) {
    TestIr t;
    const int st = t.buffer("st", "sbuf", {128, 32});
    const int mv = t.buffer("mv", "sbuf", {128, 16});
    const int ps = t.buffer("ps", "psum", {32, 16}, "float32");
    const int x32 = t.buffer("x32", "sbuf", {128, 128}, "float32");
    const int tr = t.buffer("tr", "psum", {128, 128}, "float32");
    t.add("nc_matmul", "tensor", {t.whole(ps)}, {t.whole(st), t.whole(mv)});
    t.add("nc_transpose", "tensor", {t.whole(tr)}, {t.whole(x32)});
    t.add("nc_matmul", "tensor", {t.whole(ps)}, {t.whole(st), t.whole(mv)}, {{"isa", "nc_matmul_mx"}});
    const KernelIr ir = t.load();
    const auto& in = ir.instructions();
    const HardwareProfile trn1 = profile("trn1");
    const HardwareProfile trn2 = profile("trn2");
    const HardwareProfile trn3 = profile("trn3");
    // ISA nc_matmul: max(min(64, N_stationary), N_moving) = max(min(64, 32), 16) = 32.
    EXPECT_DOUBLE_EQ(CostModel(trn1).matmul(ir, in[0]).multiplyMoving, 32);
    // fp32 transpose: a 4x matmul on NeuronCore-v2, half that with v3's transpose mode.
    EXPECT_DOUBLE_EQ(CostModel(trn1).cycles(ir, in[1]), 4 * 128);
    EXPECT_DOUBLE_EQ(CostModel(trn2).cycles(ir, in[1]), 2 * 128);
    // MX matmul: same cycles, 4x the FLOPs on trn3 only.
    EXPECT_DOUBLE_EQ(CostModel(trn3).matmul(ir, in[2]).multiplyMoving,
                     CostModel(trn3).matmul(ir, in[0]).multiplyMoving);
    EXPECT_DOUBLE_EQ(CostModel(trn3).matmul(ir, in[2]).flops, 4 * CostModel(trn3).matmul(ir, in[0]).flops);
    EXPECT_DOUBLE_EQ(CostModel(trn2).matmul(ir, in[2]).flops, CostModel(trn2).matmul(ir, in[0]).flops);
}

TEST(OpCostTable, DmaTransposeIsSlowerThanACopyOfTheSameBytes) {
    const auto run = [](const TestIr::Json& attrs) {
        TestIr t;
        const int h = t.buffer("h", "hbm", {128, 8192});
        const int s = t.buffer("s", "sbuf", {128, 8192});
        t.add("dma_copy", "dma", {t.whole(s)}, {t.hbm(h, 0, 128, 8192, 8192)}, attrs);
        const auto r = Simulator::run(t.load(), profile("trn2"));
        return (*r)->summary.totalPs;
    };
    const TimePs copy = run(TestIr::Json::object());
    const TimePs transpose = run({{"is_transpose", true}});
    EXPECT_GT(transpose, copy);
    // Only the data phase stretches (1 / 0.9), not the fixed latency.
    const TimePs latency = 1'300'000;
    EXPECT_NEAR(static_cast<double>(transpose - latency) / static_cast<double>(copy - latency), 1 / 0.9, 0.01);
}

} // namespace kl::sim::test
