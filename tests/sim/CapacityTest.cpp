#include "TestIr.h"

#include "engine/Simulator.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

TEST(Capacity, SbufTileWaitsForRoom) {
    TestIr t;
    // 128 KiB per partition each (bf16 x 65536): two cannot live at once in 192 KiB.
    const int a = t.buffer("a", "sbuf", {128, 65536});
    const int b = t.buffer("b", "sbuf", {128, 65536});
    const int c = t.buffer("c", "sbuf", {128, 512});
    t.add("memset", "vector", {t.whole(a)}, {});                                    // 0 opens a
    t.add("tensor_reduce", "vector", {t.whole(c)}, {t.whole(a)}, {{"op0", "add"}}); // 1 last read of a
    t.add("memset", "scalar", {t.whole(b)}, {});                                    // 2 needs a gone
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn1"));
    const TimelineData& tl = r->timeline;
    EXPECT_EQ(tl.cause(2), WaitCause::SbufCapacity);
    EXPECT_EQ(tl.startPs(2), tl.endPs(1));
    EXPECT_EQ(tl.stallPs(2), tl.endPs(1));
    EXPECT_EQ(r->sbuf.overflowCount, 0u);
    EXPECT_LE(r->sbuf.peakPartitionBytes, r->sbuf.capacityPartitionBytes);
    EXPECT_EQ(r->sbuf.peakPartitionBytes, 128 * 1024 + 1024);
    EXPECT_EQ(r->waits.count[static_cast<std::size_t>(WaitCause::SbufCapacity)], 1u);
}

TEST(Capacity, PsumBanksAreTheUnit) {
    TestIr t;
    const int big = t.buffer("big", "hbm", {128, 65536});
    const int slow = t.buffer("slow", "sbuf", {128, 65536});
    const int st = t.buffer("st", "sbuf", {128, 128});
    const int mv = t.buffer("mv", "sbuf", {128, 512});
    const int out = t.buffer("out", "sbuf", {128, 512}, "float32");
    t.add("dma_copy", "dma", {t.whole(slow)}, {t.whole(big)}); // 0: 16 MiB, tens of microseconds
    t.add("memset", "vector", {t.whole(st)}, {});              // 1
    t.add("memset", "vector", {t.whole(mv)}, {});              // 2
    std::vector<int> banks;
    for (int i = 0; i < 8; ++i) {
        // 100 fp32 per partition = 400 B, still one 2 KiB bank each: 8 of them fill PSUM.
        banks.push_back(t.buffer("acc", "psum", {128, 100}, "float32"));
        t.add("nc_matmul", "tensor", {t.whole(banks.back())}, {t.whole(st), t.part(mv, 0, 128, 0, 100)});
    }
    // Frees bank 0 only after the slow DMA has landed.
    const int release = t.add("tensor_tensor", "vector", {t.part(out, 0, 128, 0, 100)},
                              {t.whole(banks[0]), t.part(slow, 0, 128, 0, 100)}, {{"op0", "add"}});
    const int p8 = t.buffer("acc8", "psum", {128, 100}, "float32");
    const int mm8 = t.add("nc_matmul", "tensor", {t.whole(p8)}, {t.whole(st), t.part(mv, 0, 128, 0, 100)});
    for (int i = 1; i < 8; ++i) {
        t.add("tensor_copy", "vector", {t.part(out, 0, 128, 0, 100)}, {t.whole(banks[static_cast<std::size_t>(i)])});
    }
    t.add("tensor_copy", "vector", {t.part(out, 0, 128, 0, 100)}, {t.whole(p8)});
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn1"));
    const TimelineData& tl = r->timeline;
    const auto i8 = static_cast<std::size_t>(mm8);
    EXPECT_EQ(tl.cause(i8), WaitCause::PsumCapacity);
    EXPECT_EQ(tl.mainStartPs(i8), tl.endPs(static_cast<std::size_t>(release)));
    EXPECT_EQ(r->psum.peakPartitionBytes, 8 * 2048);
    EXPECT_EQ(r->psum.overflowCount, 0u);
}

// A working set larger than memory spills; what still overflows is tested in SpillTest.cpp.

} // namespace kl::sim::test

namespace kl::sim::test {

// The boundary itself: trn1's SBUF is 196,608 bytes per partition (its architecture guide: 24 MiB over 128
// partitions). A BF16 tile of exactly that fits; one element (two bytes) more never can, so it is an overflow,
// not a placement.
TEST(Capacity, SbufExactlyFullFitsAndOneElementOverDoesNot) {
    for (const auto& [elements, overflows] : {std::pair{98304, false}, std::pair{98305, true}}) {
        TestIr t;
        const int a = t.buffer("a", "sbuf", {128, elements}, "bfloat16");
        t.add("memset", "vector", {t.whole(a)}, {});
        const auto r = *Simulator::run(t.load(), profile("trn1"));
        EXPECT_EQ(r->sbuf.capacityPartitionBytes, 196608);
        EXPECT_EQ(r->sbuf.overflowCount, overflows ? 1u : 0u) << elements << " BF16 elements per partition";
        if (!overflows) {
            EXPECT_EQ(r->sbuf.peakPartitionBytes, 196608);
        }
    }
}

// Two tiles that must be live together and need two bytes more than SBUF holds: never placed over capacity
// (the big one, used last, is spilled and reloaded instead), whatever slack a placement might allow.
TEST(Capacity, TwoTilesTwoBytesOverCapacityNeverShareSbuf) {
    TestIr t;
    const int a = t.buffer("a", "sbuf", {128, 98304 - 512}); // 195,584 bytes per partition
    const int b = t.buffer("b", "sbuf", {128, 513});         // 1,026 bytes: with a, two bytes over
    const int c = t.buffer("c", "sbuf", {128, 1});
    const int d = t.buffer("d", "sbuf", {128, 1});
    t.add("memset", "vector", {t.whole(a)}, {});                                    // 0 a, read at 3
    t.add("memset", "vector", {t.whole(b)}, {});                                    // 1 b while a lives
    t.add("tensor_reduce", "vector", {t.whole(c)}, {t.whole(b)}, {{"op0", "add"}}); // 2 last use of b
    t.add("tensor_reduce", "vector", {t.whole(d)}, {t.whole(a)}, {{"op0", "add"}}); // 3 last use of a
    const auto r = *Simulator::run(t.load(), profile("trn1"));
    EXPECT_LE(r->sbuf.peakPartitionBytes, r->sbuf.capacityPartitionBytes);
    EXPECT_EQ(r->sbuf.overflowCount, 0u);
}

} // namespace kl::sim::test
