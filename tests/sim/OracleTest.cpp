// Expected values computed here from the documented formulas, never read back from the code under test: each test
// names the formula's source (the same documents the profiles cite) and fails when the implementation drifts from
// it at a point the other tests do not reach (a strided operand, a point between two table entries, a transfer
// whose partitions are not a multiple of an engine's share).
#include "TestIr.h"

#include "engine/CostModel.h"
#include "engine/Simulator.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kl::sim::test {
namespace {

// trn1.json values, as its sources state them (quoted here so the test does not read the code's own copy).
// The formula: docs/simulator.md, DMA section (line 228): "linear in log2(bytes) between points, clamped at the
// ends"; the table's shape from the NKI DMA bandwidth guide (nki/deep-dives/nki-dma-bandwidth-guide.rst).
constexpr double kEfficiencyTable[][2] = {{32, 0.05},   {128, 0.2},   {256, 0.38}, {512, 0.4},
                                          {1024, 0.42}, {2048, 0.75}, {4096, 1.0}};
constexpr double kEngineBytesPerNs = 17;   // NKI DMA bandwidth guide: 17 B/ns per engine on Trainium1
constexpr double kPartitionsPerEngine = 8; // DMA overview: 16 engines over 128 partitions
constexpr double kFixedLatencyNs = 1300;   // DMA bandwidth guide: ~1300 ns per transfer

/// Linear interpolation in log2 of the bytes per partition between the table's neighbours (docs/simulator.md).
double expectedEfficiency(double bytes) {
    if (bytes <= kEfficiencyTable[0][0]) {
        return kEfficiencyTable[0][1];
    }
    for (std::size_t i = 1; i < std::size(kEfficiencyTable); ++i) {
        const double x0 = kEfficiencyTable[i - 1][0], y0 = kEfficiencyTable[i - 1][1];
        const double x1 = kEfficiencyTable[i][0], y1 = kEfficiencyTable[i][1];
        if (bytes <= x1) {
            return y0 + (std::log2(bytes) - std::log2(x0)) / (std::log2(x1) - std::log2(x0)) * (y1 - y0);
        }
    }
    return kEfficiencyTable[std::size(kEfficiencyTable) - 1][1];
}

TEST(Oracle, TensorTensorOnAStridedBf16OperandTakesTheSlowPath) {
    // nki.isa tensor_tensor (Neuron 2.26 docstring): max(MIN_II, N) cycles only when both inputs are contiguous
    // BF16 in SBUF (add/subtract/multiply), else max(MIN_II, 2N).
    const std::int64_t n = 512;
    TestIr t;
    const int d = t.buffer("d", "sbuf", {128, n});
    const int a = t.buffer("a", "sbuf", {128, n});
    const int b = t.buffer("b", "sbuf", {128, 2 * n});
    TestIr::Json strided = t.part(b, 0, 128, 0, n);
    strided["pattern"] = TestIr::Json::array({TestIr::Json::array({2, n})}); // every other element
    t.add("tensor_tensor", "vector", {t.whole(d)}, {t.whole(a), t.whole(a)}, {{"op0", "add"}});
    t.add("tensor_tensor", "vector", {t.whole(d)}, {t.whole(a), strided}, {{"op0", "add"}});
    const KernelIr ir = t.load();
    const HardwareProfile hw = profile("trn1");
    EXPECT_DOUBLE_EQ(CostModel(hw).cycles(ir, ir.instructions()[0]), static_cast<double>(n));
    EXPECT_DOUBLE_EQ(CostModel(hw).cycles(ir, ir.instructions()[1]), 2.0 * static_cast<double>(n));
}

TEST(Oracle, DmaEfficiencyIsInterpolatedInLog2OfTheTransferSize) {
    const HardwareProfile hw = profile("trn1");
    for (const double bytes :
         {8.0, 32.0, 33.0, 64.0, 100.0, 181.0, 200.0, 300.0, 700.0, 1500.0, 3000.0, 4096.0, 65536.0}) {
        EXPECT_NEAR(hw.dmaEfficiency(bytes), expectedEfficiency(bytes), 1e-12) << bytes << " bytes per partition";
    }
    // The two differ most at 64 B: log2 gives 0.125, a straight line between 32 and 128 would give 0.1.
    EXPECT_NEAR(hw.dmaEfficiency(64), 0.125, 1e-12);
}

TEST(Oracle, ATransferBetweenTablePointsTakesTheInterpolatedTime) {
    // The whole transfer, through the simulator: 128 partitions (16 engines x 17 B/ns, the pool's 272 B/ns) at
    // bytes per partition between table points; the data moves at 272 x efficiency after the fixed latency.
    for (const std::int64_t bytesPerPartition : {64, 96, 384, 768, 1536, 3072}) {
        TestIr t;
        const std::int64_t freeElems = bytesPerPartition / 4; // float32
        const int src = t.buffer("a", "hbm", {128, freeElems}, "float32");
        const int dst = t.buffer("s", "sbuf", {128, freeElems}, "float32");
        t.add("dma_copy", "dma", {t.whole(dst)}, {t.whole(src)});
        const auto result = *Simulator::run(t.load(), profile("trn1"));
        const double bytes = static_cast<double>(128 * bytesPerPartition);
        const double rate = 16 * kEngineBytesPerNs * expectedEfficiency(static_cast<double>(bytesPerPartition));
        EXPECT_NEAR(static_cast<double>(result->timeline.endPs(0)) / 1000.0, kFixedLatencyNs + bytes / rate, 1.0)
            << bytesPerPartition << " bytes per partition";
    }
}

TEST(Oracle, ATransferOverPartitionsNotAMultipleOfEightUsesTheEnginesItTouches) {
    // 12 partitions touch ceil(12 / 8) = 2 DMA engines, so the transfer runs at 2 x 17 B/ns (times the
    // efficiency of its 4 KiB per partition, 1.0), after the fixed latency.
    for (const int partitions : {12, 9, 17}) {
        TestIr t;
        const std::int64_t freeElems = 1024; // float32: 4 KiB per partition, full efficiency
        const int src = t.buffer("a", "hbm", {partitions, freeElems}, "float32");
        const int dst = t.buffer("s", "sbuf", {partitions, freeElems}, "float32");
        t.add("dma_copy", "dma", {t.whole(dst)}, {t.whole(src)});
        const auto result = *Simulator::run(t.load(), profile("trn1"));
        const double engines = std::ceil(partitions / kPartitionsPerEngine);
        const double bytes = static_cast<double>(partitions * freeElems * 4);
        const double expectedNs = kFixedLatencyNs + bytes / (engines * kEngineBytesPerNs);
        EXPECT_NEAR(static_cast<double>(result->timeline.endPs(0)) / 1000.0, expectedNs, 1.0) << partitions;
    }
}

} // namespace
} // namespace kl::sim::test
