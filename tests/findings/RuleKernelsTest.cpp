// Every rule on kernels of our own (tests/findings/kernels): one that triggers it and one that does not, differing
// only in what the rule is about (a tile allocated outside or inside a loop, a dtype, a tile width, ...). Each kernel
// is traced with the front end and simulated on trn2.
#include "FindingsTestSupport.h"

#include "findings/RuleRegistry.h"

#include <gtest/gtest.h>

#include <set>

namespace kl::core::findings::test {
namespace {

struct Case {
    const char* name; ///< the test's name
    const char* rule;
    const char* file; ///< a kernel file, or a task folder (with a CUDA file) for the migration rules
    const char* kernel;
    std::vector<std::string> args;
    bool fires;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.name;
}

const std::vector<std::string> kBands = {"a=1024x2048:float32"};
const std::vector<std::string> kAdd = {"a=512x2048:float32", "b=512x2048:float32"};
const std::vector<std::string> kVector = {"a=1024x512:float32"};
const std::vector<std::string> kFp32Mm = {"lhsT=128x128:float32", "rhs=128x4096:float32"};
const std::vector<std::string> kParts = {"a=512x2048:float32"};
const std::vector<std::string> kStream = {"lhsT=128x128:bfloat16", "rhs=128x8192:bfloat16"};
const std::vector<std::string> kResident = {"lhsT=128x128:bfloat16", "rhs=128x512:bfloat16"};
const std::vector<std::string> kReload = {"a=2048x512:float32", "w=128x4096:float32"};
const std::vector<std::string> kChain = {"a=128x64:float32"};
const std::vector<std::string> kBudget = {"a=128x65536:float32"};
const std::vector<std::string> kTranspose = {"x=2048x128:bfloat16", "rhs=128x512:bfloat16"};

const std::vector<Case> kCases = {
    {"ExposedDmaSerialBands", "exposed-dma", "exposed_dma.py", "serial_bands", kBands, true},
    {"ExposedDmaPipelinedBands", "exposed-dma", "exposed_dma.py", "pipelined_bands", kBands, false},
    {"ExposedDmaPrologueOnly", "exposed-dma", "chains.py", "independent_steps", kChain, false},
    {"SmallTransfersNarrowTiles", "dma-small-transfers", "small_transfers.py", "narrow_tiles", kAdd, true},
    {"SmallTransfersWideTiles", "dma-small-transfers", "small_transfers.py", "wide_tiles", kAdd, false},
    {"EngineBoundVectorOnly", "engine-bound", "vector_heavy.py", "vector_only", kVector, true},
    {"EngineBoundSharedEngines", "engine-bound", "vector_heavy.py", "shared_engines", kVector, false},
    {"Fp32MatmulFp32Operands", "fp32-matmul", "matmul_dtypes.py", "fp32_operands", kFp32Mm, true},
    {"Fp32MatmulBf16Operands", "fp32-matmul", "matmul_dtypes.py", "bf16_operands", kFp32Mm, false},
    {"PartitionsFew", "partitions-underused", "partitions.py", "few_partitions", kParts, true},
    {"PartitionsAll", "partitions-underused", "partitions.py", "all_partitions", kParts, false},
    {"TensorIdleSingleBuffer", "tensor-idle-waiting", "operand_buffers.py", "single_buffer", kStream, true},
    {"TensorIdleTilePerStep", "tensor-idle-waiting", "operand_buffers.py", "tile_per_step", kStream, false},
    {"SmallMovingNarrow", "small-moving-free", "moving_free.py", "narrow_moving", kResident, true},
    {"SmallMovingWide", "small-moving-free", "moving_free.py", "wide_moving", kResident, false},
    {"RedundantReloadInside", "redundant-loads", "reloads.py", "reload_inside", kReload, true},
    {"RedundantLoadOnce", "redundant-loads", "reloads.py", "load_once", kReload, false},
    {"PsumOneTile", "psum-bank-pressure", "psum_tiles.py", "one_psum_tile", kResident, true},
    {"PsumOverflowAloneIsNotReported", "psum-bank-pressure", "psum_tiles.py", "too_many_psum_tiles", kResident, false},
    {"PsumTilePerStep", "psum-bank-pressure", "psum_tiles.py", "psum_tile_per_step", kResident, false},
    {"SpillAllResident", "sbuf-spill", "sbuf_budget.py", "all_resident", kBudget, true},
    {"SpillChunked", "sbuf-spill", "sbuf_budget.py", "chunked", kBudget, false},
    {"ChainOneLong", "serial-dependency-chain", "chains.py", "one_long_chain", kChain, true},
    {"ChainIndependent", "serial-dependency-chain", "chains.py", "independent_steps", kChain, false},
    {"ChainBigStepsIsNotOverhead", "serial-dependency-chain", "vector_heavy.py", "vector_only", kVector, false},
    {"TransposeOnTensor", "transpose-on-tensor", "transposes.py", "transpose_on_tensor", kTranspose, true},
    {"TransposeByDma", "transpose-on-tensor", "transposes.py", "transpose_by_dma", kTranspose, false},
    {"TailRowsDropped", "tail-not-handled", "rowsum_tail", "", {}, true},
    {"TailRagged", "tail-not-handled", "rowsum_ragged", "", {}, false},
    {"AccumulateBf16", "accumulate-low-precision", "colsum_bf16", "", {}, true},
    {"AccumulateFp32", "accumulate-low-precision", "colsum_fp32", "", {}, false},
    {"UnmappedEpilogue", "cuda-lines-unmapped", "colsum_unlinked", "", {}, true},
    {"UnmappedAllLinked", "cuda-lines-unmapped", "colsum_fp32", "", {}, false},
    {"RooflineAlways", "roofline", "moving_free.py", "wide_moving", kResident, true},
};

class RuleKernels : public ::testing::TestWithParam<Case> {};

TEST_P(RuleKernels, FiresOnlyWhereItShould) {
    const Case& c = GetParam();
    const auto analysed = analyse(c.file, c.kernel, c.args);
    ASSERT_TRUE(analysed);
    EXPECT_EQ(analysed->has(c.rule), c.fires) << c.file << " " << c.kernel << ": " << analysed->summary();
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleKernels, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(RuleKernelsTable, EveryRuleHasAKernelOnEachSide) {
    std::set<std::string> fires;
    std::set<std::string> silent;
    for (const Case& c : kCases) {
        (c.fires ? fires : silent).insert(c.rule);
    }
    for (const std::string_view id : ruleIds()) {
        if (id == "semantics-differ") { // reads a numerics run, not a kernel: SemanticsDifferTest has both sides
            continue;
        }
        EXPECT_TRUE(fires.contains(std::string(id))) << id << " has no kernel that triggers it";
        if (id != "roofline") { // the roofline is reported for every run; its severity is tested below
            EXPECT_TRUE(silent.contains(std::string(id))) << id << " has no kernel that leaves it silent";
        }
    }
}

// The evidence points where an expert would look, and the figures say why.

TEST(RuleEvidence, SmallTransfersNameTheLoadLineAndItsSize) {
    const auto a = analyse("small_transfers.py", "narrow_tiles", kAdd);
    ASSERT_TRUE(a);
    const Finding* f = a->find("dma-small-transfers");
    ASSERT_NE(f, nullptr);
    ASSERT_NE(f->figure("median_bytes_per_partition"), nullptr);
    EXPECT_EQ(f->figure("median_bytes_per_partition")->value, 256.0); // [128, 64] float32
    EXPECT_EQ(f->figure("median_bytes_per_partition")->threshold, 2048.0);
    ASSERT_FALSE(f->evidence.empty());
    ASSERT_FALSE(f->evidence.front().lines.empty());
    EXPECT_EQ(f->evidence.front().lines.front().file, "small_transfers.py");
    EXPECT_GT(f->evidence.front().instructionCount, 0u);
    EXPECT_FALSE(f->evidence.front().instructions.empty());
    EXPECT_FALSE(f->evidence.front().times.empty());
    EXPECT_EQ(f->rubricItem, "perf.dma");
}

TEST(RuleEvidence, TailNamesTheFirstUnwrittenRowAndTheCudaGuard) {
    const auto a = analyse("rowsum_tail");
    ASSERT_TRUE(a);
    const Finding* f = a->find("tail-not-handled");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Blocking);
    EXPECT_EQ(f->figure("unwritten_elements")->value, 44.0 * 512.0); // rows 256..299
    ASSERT_EQ(f->evidence.size(), 2u);
    EXPECT_NE(f->evidence[0].note.find("[256, 0]"), std::string::npos) << f->evidence[0].note;
    ASSERT_FALSE(f->evidence[1].lines.empty());
    EXPECT_EQ(f->evidence[1].lines.front().side, SourceSide::Cuda);
    EXPECT_EQ(f->evidence[1].lines.front().file, "kernel.cu");
    EXPECT_EQ(f->evidence[1].lines.front().firstLine, 6); // if (r >= R || c >= C)
}

TEST(RuleEvidence, AccumulationCitesTheCudaFloatAccumulator) {
    const auto a = analyse("colsum_bf16");
    ASSERT_TRUE(a);
    const Finding* f = a->find("accumulate-low-precision");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Major);
    EXPECT_EQ(f->figure("accumulation_steps")->value, 16.0); // 2048 rows / 128
    const EvidenceItem& cuda = f->evidence.back();
    ASSERT_EQ(cuda.lines.size(), 1u);
    EXPECT_EQ(cuda.lines.front().side, SourceSide::Cuda);
    EXPECT_EQ(cuda.lines.front().firstLine, 11); // acc += v;
}

TEST(RuleEvidence, UnmappedNamesTheUnlinkedCudaRegion) {
    const auto a = analyse("colsum_unlinked");
    ASSERT_TRUE(a);
    const Finding* f = a->find("cuda-lines-unmapped");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->evidence.size(), 1u);
    ASSERT_EQ(f->evidence.front().lines.size(), 1u);
    EXPECT_EQ(f->evidence.front().lines.front().firstLine, 13);
    EXPECT_EQ(f->evidence.front().lines.front().lastLine, 16);
}

TEST(RuleEvidence, NkiEvidenceLinesBringTheirLinkedCudaLines) {
    const auto a = analyse("colsum_fp32");
    ASSERT_TRUE(a);
    const Finding* f = a->find("dma-small-transfers");
    ASSERT_NE(f, nullptr);
    const auto& lines = f->evidence.front().lines;
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], (SourceRange{SourceSide::Nki, "kernel.py", 15, 15}));  // the x load ...
    EXPECT_EQ(lines[1], (SourceRange{SourceSide::Cuda, "kernel.cu", 10, 10})); // ... its `# cuda: 10`
}

TEST(RuleEvidence, RooflineFiguresComeFromTheProfile) {
    const auto a = analyse("moving_free.py", "wide_moving", kResident);
    ASSERT_TRUE(a);
    const Finding* f = a->find("roofline");
    ASSERT_NE(f, nullptr);
    // trn2: 128 x 128 x 2 x 2.4 GHz; 256 matmuls of 2 x 128 x 128 x 512 FLOP.
    EXPECT_NEAR(f->figure("peak_flop_per_ns")->value, 128.0 * 128 * 2 * 2.4, 1e-6);
    const double flop = 256.0 * 2 * 128 * 128 * 512;
    const double ns = static_cast<double>(a->run.result->summary.totalPs) / 1000.0;
    EXPECT_NEAR(f->figure("achieved_flop_per_ns")->value, flop / ns, 1e-6 * flop / ns);
    EXPECT_NE(f->title.find("compute-bound"), std::string::npos) << f->title;
}

TEST(RuleEvidence, RooflineSeverityFollowsTheAttainedShare) {
    const auto good = analyse("moving_free.py", "wide_moving", kResident);
    const auto poor = analyse("moving_free.py", "narrow_moving", kResident);
    ASSERT_TRUE(good && poor);
    EXPECT_EQ(good->find("roofline")->severity, Severity::Nit);
    EXPECT_EQ(poor->find("roofline")->severity, Severity::Minor);
}

} // namespace
} // namespace kl::core::findings::test
