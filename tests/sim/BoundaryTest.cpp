// Each limit the simulator models, tested at the limit and one past it (issue 24): DMA engines for partition
// counts that are not multiples of 8, a PSUM tile exactly one bank and one element over, as many accumulators
// as PSUM has banks and one more, a PSUM tile filling the partition, and the IR's partition limit. Expected
// values are computed here from the documented rule, with its source named, not read from the code under test.
#include "TestIr.h"

#include "engine/Simulator.h"
#include "ir/IrLoader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace kl::sim::test {
namespace {

// trn1, as its sources state them (docs/simulator.md, table "DMA per core" and the DMA section, lines 228-231:
// "a transfer is capped at min(ceil(partitions / partitions_per_engine), engines) x engine_bandwidth"; the NKI
// DMA overview, nki/get-started/about/nki-dma-overview.rst: 16 engines over 128 partitions, 8 each, 17 B/ns each
// on Trainium1; the DMA bandwidth guide, nki/deep-dives/nki-dma-bandwidth-guide.rst: ~1300 ns per transfer).
constexpr double kEngines = 16;
constexpr double kPartitionsPerEngine = 8;
constexpr double kEngineBytesPerNs = 17;
constexpr double kFixedLatencyNs = 1300;
// Architecture guide (nki/guides/architecture/trainium_inferentia2_arch.rst): PSUM is 16 KiB per partition in
// 8 banks of 2 KiB (512 float32); a tile reserves whole banks (docs/simulator.md, "SBUF and PSUM").
constexpr std::int64_t kBankBytes = 2048;
constexpr std::int64_t kBanks = 8;

double dmaNs(int partitions, std::int64_t bytes) {
    // 4 KiB per partition: efficiency 1.0 (the table's last point), so only the engines set the rate.
    const double engines = std::min(std::ceil(partitions / kPartitionsPerEngine), kEngines);
    return kFixedLatencyNs + static_cast<double>(bytes) / (engines * kEngineBytesPerNs);
}

TEST(Boundary, DmaEnginesForPartitionCountsThatAreNotMultiplesOfEight) {
    for (const int partitions : {1, 7, 8, 9, 15, 16, 17, 63, 65, 120, 121, 127, 128}) {
        TestIr t;
        const std::int64_t freeElems = 1024; // float32: 4 KiB per partition
        const int src = t.buffer("a", "hbm", {partitions, freeElems}, "float32");
        const int dst = t.buffer("s", "sbuf", {partitions, freeElems}, "float32");
        t.add("dma_copy", "dma", {t.whole(dst)}, {t.whole(src)});
        const auto r = *Simulator::run(t.load(), profile("trn1"));
        const std::int64_t bytes = partitions * freeElems * 4;
        EXPECT_NEAR(static_cast<double>(r->timeline.endPs(0)) / 1000.0, dmaNs(partitions, bytes), 1.0)
            << partitions << " partitions: " << std::ceil(partitions / kPartitionsPerEngine) << " engines expected";
    }
}

/// `count` accumulators of `elements` float32 per partition that must all be live at once: each is read together
/// with the last one written, so no bank is released before every accumulator has been written.
std::shared_ptr<const SimResult> accumulators(int count, std::int64_t elements) {
    TestIr t;
    const int st = t.buffer("st", "sbuf", {128, 128});
    const int mv = t.buffer("mv", "sbuf", {128, elements});
    const int out = t.buffer("out", "sbuf", {128, elements}, "float32");
    t.add("memset", "vector", {t.whole(st)}, {});
    t.add("memset", "vector", {t.whole(mv)}, {});
    std::vector<int> acc;
    for (int i = 0; i < count; ++i) {
        acc.push_back(t.buffer("acc", "psum", {128, elements}, "float32"));
        t.add("nc_matmul", "tensor", {t.whole(acc.back())}, {t.whole(st), t.whole(mv)});
    }
    for (const int a : acc) {
        t.add("tensor_tensor", "vector", {t.whole(out)}, {t.whole(a), t.whole(acc.back())}, {{"op0", "add"}});
    }
    return *Simulator::run(t.load(), profile("trn1"));
}

/// Whether PSUM ran out of room: a tile waited for a bank or one was spilled to make room.
bool psumWasShort(const SimResult& r) {
    return r.waits.count[static_cast<std::size_t>(WaitCause::PsumCapacity)] > 0 || r.spills.psum.transfers > 0;
}

TEST(Boundary, AsManyAccumulatorsAsBanksFitAndOneMoreDoesNot) {
    const auto full = accumulators(static_cast<int>(kBanks), 512);
    EXPECT_FALSE(psumWasShort(*full)) << kBanks << " one-bank accumulators must live together";
    EXPECT_EQ(full->psum.peakPartitionBytes, kBanks * kBankBytes);
    const auto over = accumulators(static_cast<int>(kBanks) + 1, 512);
    EXPECT_TRUE(psumWasShort(*over)) << kBanks + 1 << " accumulators cannot all hold a bank";
    EXPECT_LE(over->psum.peakPartitionBytes, kBanks * kBankBytes);
    EXPECT_EQ(over->psum.overflowCount, 0u);
}

TEST(Boundary, APsumTileOneElementOverABankTakesTwo) {
    // Four tiles of exactly one bank (512 float32 = 2 KiB) and four of 513: 4 + 4 x 2 = 12 banks > 8 for the
    // second; the first needs 8 of 8 when all eight are one bank.
    const auto exact = accumulators(static_cast<int>(kBanks), kBankBytes / 4);
    EXPECT_FALSE(psumWasShort(*exact));
    EXPECT_EQ(exact->psum.peakPartitionBytes, kBanks * kBankBytes) << "a 2 KiB tile reserves one bank, no more";
    const auto over = accumulators(static_cast<int>(kBanks) / 2 + 1, kBankBytes / 4 + 1); // 5 tiles x 2 banks
    EXPECT_TRUE(psumWasShort(*over)) << "a tile of 2 KiB + 4 bytes must reserve two banks";
    const auto fits = accumulators(static_cast<int>(kBanks) / 2, kBankBytes / 4 + 1); // 4 tiles x 2 banks
    EXPECT_FALSE(psumWasShort(*fits));
    EXPECT_EQ(fits->psum.peakPartitionBytes, kBanks * kBankBytes) << "four 2-bank tiles fill PSUM exactly";
}

TEST(Boundary, APsumTileFillingThePartitionFitsAndOneElementMoreOverflows) {
    for (const auto& [elements, overflows] :
         {std::pair{kBanks * kBankBytes / 4, false}, std::pair{kBanks * kBankBytes / 4 + 1, true}}) {
        TestIr t;
        const int p = t.buffer("p", "psum", {128, elements}, "float32");
        t.add("memset", "vector", {t.whole(p)}, {});
        const auto r = *Simulator::run(t.load(), profile("trn1"));
        EXPECT_EQ(r->psum.capacityPartitionBytes, kBanks * kBankBytes);
        EXPECT_EQ(r->psum.overflowCount, overflows ? 1u : 0u) << elements << " float32 per partition";
    }
}

TEST(Boundary, OnChipPartitionsUpTo128Load) {
    for (const int partitions : {1, 127, 128, 129}) {
        TestIr t;
        const int s = t.buffer("s", "sbuf", {partitions, 64});
        t.add("memset", "vector", {t.whole(s)}, {});
        auto ir = IrLoader::loadString(t.str(), "k.ir.json");
        EXPECT_EQ(ir.has_value(), partitions <= 128) << partitions << " partitions";
        if (!ir) {
            EXPECT_NE(ir.error().message.find("partition dimension must be 1..128"), std::string::npos);
        }
    }
}

} // namespace
} // namespace kl::sim::test
