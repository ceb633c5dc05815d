#include "TestIr.h"

#include "engine/Simulator.h"
#include "output/ResultJson.h"
#include "output/TextReport.h"

#include <gtest/gtest.h>

#include <array>

namespace kl::sim::test {

TEST(EdgeCases, EmptyKernelGivesAnEmptyResult) {
    TestIr t;
    const KernelIr ir = t.load();
    auto r = Simulator::run(ir, profile("trn1"));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ((*r)->summary.totalPs, 0);
    EXPECT_EQ((*r)->summary.instructionCount, 0u);
    EXPECT_EQ((*r)->summary.mfuPct, 0.0);
    EXPECT_NE(TextReport::timeline(**r, 10).find("no instructions"), std::string::npos);
    EXPECT_FALSE(ResultJson::write(**r).empty());
}

TEST(EdgeCases, OddInstructionsStillSchedule) {
    TestIr t;
    const int s = t.buffer("s", "sbuf", {128, 64});
    const int h = t.buffer("h", "hbm", {128, 64});
    const int p = t.buffer("p", "psum", {128, 64}, "float32");
    t.add("iota", "gpsimd", {t.whole(s)}, {});                    // no sources
    t.add("nc_warp_drive", "scalar", {t.whole(s)}, {t.whole(s)}); // unknown op
    t.add("dma_copy", "dma", {t.whole(h)}, {t.whole(s)});         // store
    t.add("dma_copy", "dma", {t.whole(p)}, {t.whole(h)});         // HBM -> PSUM
    t.add("tensor_copy", "vector", {t.whole(s)}, {t.whole(p)});
    t.add("memset", "vector", {}, {}); // nothing at all
    const KernelIr ir = t.load();
    auto r = Simulator::run(ir, profile("trn2"));
    ASSERT_TRUE(r.has_value());
    const TimelineData& tl = (*r)->timeline;
    ASSERT_EQ(tl.size(), 6u);
    for (std::size_t i = 0; i < tl.size(); ++i) {
        EXPECT_GT(tl.endPs(i), tl.startPs(i)) << i;
    }
    EXPECT_EQ(tl.waitOn(1), 0u);
    EXPECT_EQ(tl.waitOn(2), 1u);
    EXPECT_EQ(tl.waitOn(3), 2u); // RAW: the load reads what the store wrote
    EXPECT_EQ((*r)->psum.peakPartitionBytes, 2048);
    EXPECT_EQ((*r)->sbuf.partitionBytes.back(), 0);
}

namespace {

/// A load into a tile, a copy of it and a store, built through the KernelIr API; with `buffersFirst`
/// false the instructions are added before the buffers they name (the API allows it).
KernelIr loadCopyStore(bool buffersFirst) {
    KernelIr ir;
    const std::array<PatternDim, 1> row{{{1, 512}}};
    const std::uint32_t pattern = ir.addPattern(row);
    const auto operand = [&](std::uint32_t buffer, std::uint16_t partitions) {
        AccessPattern ap;
        ap.buffer = buffer;
        ap.partCount = partitions;
        ap.patternBegin = pattern;
        ap.patternCount = 1;
        ap.dtype = DType::BFloat16;
        return ap;
    };
    const auto addBuffers = [&] {
        ir.addBuffer({"in", {128, 512}, Memory::Hbm, DType::BFloat16, BufferRole::Input, 2, {}});
        ir.addBuffer({"a", {128, 512}, Memory::Sbuf, DType::BFloat16, BufferRole::Tile, 2, {}});
        ir.addBuffer({"b", {128, 512}, Memory::Sbuf, DType::BFloat16, BufferRole::Tile, 2, {}});
        ir.addBuffer({"out", {128, 512}, Memory::Hbm, DType::BFloat16, BufferRole::Output, 2, {}});
    };
    if (buffersFirst) {
        addBuffers();
    }
    const auto add = [&](Op op, Engine engine, AccessPattern dst, AccessPattern src) {
        Instruction in;
        in.op = op;
        in.engine = engine;
        ir.addInstruction(in, std::span(&dst, 1), std::span(&src, 1));
    };
    add(Op::DmaCopy, Engine::Dma, operand(1, 128), operand(0, 1));
    add(Op::TensorCopy, Engine::Vector, operand(2, 128), operand(1, 128));
    add(Op::DmaCopy, Engine::Dma, operand(3, 1), operand(2, 128));
    if (!buffersFirst) {
        addBuffers();
    }
    return ir;
}

} // namespace

TEST(EdgeCases, BuffersAddedAfterTheirInstructionsScheduleTheSame) {
    const KernelIr inOrder = loadCopyStore(true);
    const KernelIr late = loadCopyStore(false);
    EXPECT_FALSE(inOrder.hasForwardBufferRefs());
    EXPECT_TRUE(late.hasForwardBufferRefs());
    auto a = Simulator::run(inOrder, profile("trn1"));
    auto b = Simulator::run(late, profile("trn1"));
    ASSERT_TRUE(a.has_value());
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(ResultJson::write(**a), ResultJson::write(**b));
    // The copy waits for the load, the store for the copy, and each tile is freed after its last use.
    EXPECT_EQ((*a)->timeline.waitOn(1), 0u);
    EXPECT_EQ((*a)->timeline.waitOn(2), 1u);
    EXPECT_EQ((*a)->sbuf.partitionBytes.back(), 0);
    EXPECT_EQ((*a)->sbuf.peakPartitionBytes, 2 * 1024);
}

TEST(EdgeCases, AnOperandWithoutABufferIsRefusedNamingItsInstruction) {
    KernelIr ir = loadCopyStore(true);
    AccessPattern dangling;
    dangling.buffer = 9;
    Instruction in;
    in.op = Op::TensorCopy;
    in.engine = Engine::Vector;
    ir.addInstruction(in, std::span(&dangling, 1), {});
    ir.setId(ir.instructions().size() - 1, 77);
    auto r = Simulator::run(ir, profile("trn1"));
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("instruction #3 (id 77) refers to buffer 9, which does not exist"),
              std::string::npos)
        << r.error().message;
}

} // namespace kl::sim::test
