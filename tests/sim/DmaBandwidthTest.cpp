#include "TestIr.h"

#include "engine/Simulator.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

namespace {

/// `count` loads, each of `partitions` x `freeBytes` bytes, issued together on separate queues.
std::shared_ptr<const SimResult> loads(int count, int partitions, std::int64_t freeElems) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {partitions, freeElems});
    for (int i = 0; i < count; ++i) {
        const int s = t.buffer("s", "sbuf", {partitions, freeElems});
        t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)});
    }
    const KernelIr ir = t.load();
    return *Simulator::run(ir, profile("trn1"));
}

double endNs(const SimResult& r, std::size_t i) {
    return static_cast<double>(r.timeline.endPs(i)) / 1000.0;
}

} // namespace

TEST(DmaBandwidth, SingleTransferIsLatencyPlusBytesOverBandwidth) {
    const auto r = loads(1, 128, 16384); // 32 KiB per partition, 4 MiB
    EXPECT_NEAR(endNs(*r, 0), 1300.0 + 4194304.0 / 272.0, 1.0);
    EXPECT_EQ(r->dma.bytes, 4194304);
}

TEST(DmaBandwidth, ConcurrentTransfersShareTheCoreBandwidth) {
    const auto r = loads(2, 128, 16384);
    const double data = 4194304.0 / 272.0;
    // Together they need twice the data time; neither can finish before one alone would.
    EXPECT_NEAR(std::max(endNs(*r, 0), endNs(*r, 1)), 1300.0 + 2 * data, 1.0);
    EXPECT_GE(endNs(*r, 1), 1300.0 + data);
    // Peak aggregate rate never exceeds the pool.
    double peak = 0;
    double moved = 0;
    for (std::size_t i = 0; i < r->dma.bytesPerNs.size(); ++i) {
        peak = std::max(peak, r->dma.bytesPerNs[i]);
        if (i + 1 < r->dma.timePs.size()) {
            moved += r->dma.bytesPerNs[i] * static_cast<double>(r->dma.timePs[i + 1] - r->dma.timePs[i]) / 1000.0;
        }
    }
    EXPECT_LE(peak, 272.0 + 1e-6);
    EXPECT_NEAR(moved, 2 * 4194304.0, 1.0);
}

TEST(DmaBandwidth, LaterTransfersTakeWhatEarlierOnesLeave) {
    // Four 8-partition transfers (one engine, 17 B/ns each) leave 204 B/ns for a full-width transfer
    // issued after them; once they are done it gets the whole 272 B/ns.
    TestIr t;
    const int narrowSrc = t.buffer("n", "hbm", {8, 8192});
    const int wideSrc = t.buffer("w", "hbm", {128, 16384});
    for (int i = 0; i < 4; ++i) {
        const int s = t.buffer("s", "sbuf", {8, 8192});
        t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(narrowSrc)});
    }
    const int wide = t.buffer("wide", "sbuf", {128, 16384});
    t.add("dma_copy", "dma", {t.whole(wide)}, {t.whole(wideSrc)});
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn1"));
    const double narrowEnd = 1300.0 + 8.0 * 8192 * 2 / 17.0;
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(endNs(*r, i), narrowEnd, 1.0);
    }
    const double sharedBytes = (272.0 - 4 * 17.0) * (narrowEnd - 1300.0);
    EXPECT_NEAR(endNs(*r, 4), narrowEnd + (4194304.0 - sharedBytes) / 272.0, 1.0);
    for (double rate : r->dma.bytesPerNs) {
        EXPECT_LE(rate, 272.0 + 1e-6);
    }
    EXPECT_EQ(r->dma.bytesPerNs.back(), 0.0);
    EXPECT_EQ(r->dma.activeTransfers.back(), 0u);
}

TEST(DmaBandwidth, NarrowTransfersAreCappedByTheirEngines) {
    // 8 partitions -> one DMA engine (17 B/ns); two such run side by side at full speed each.
    const auto r = loads(2, 8, 4096); // 8 KiB per partition, 64 KiB each
    const double alone = 1300.0 + 65536.0 / 17.0;
    EXPECT_NEAR(endNs(*r, 0), alone, 1.0);
    EXPECT_NEAR(endNs(*r, 1), alone, 1.0);
}

TEST(DmaBandwidth, SmallBytesPerPartitionLowersEfficiency) {
    const HardwareProfile hw = profile("trn1");
    const auto r = loads(1, 128, 128); // 256 B per partition
    const double eff = hw.dmaEfficiency(256);
    EXPECT_LT(eff, 1.0);
    EXPECT_NEAR(endNs(*r, 0), 1300.0 + 32768.0 / (272.0 * eff), 1.0);
}

TEST(DmaBandwidth, ExposedDmaIsDmaTimeWithoutCompute) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 16384});
    const int s = t.buffer("s", "sbuf", {128, 16384});
    const int o = t.buffer("o", "sbuf", {128, 16384});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)});
    t.add("tensor_copy", "vector", {t.whole(o)}, {t.whole(s)});
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn1"));
    EXPECT_EQ(r->overlap.dmaExposedPs, r->timeline.endPs(0)); // nothing computes during the load
    EXPECT_EQ(r->overlap.overlapPs, 0);
    EXPECT_EQ(r->summary.dmaExposedPs, r->overlap.dmaExposedPs);
    EXPECT_GT(r->summary.hbmBandwidthUtilizationPct, 0.0);
}

} // namespace kl::sim::test
