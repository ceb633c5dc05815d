#include "TestIr.h"

#include "engine/Simulator.h"
#include "output/ResultJson.h"
#include "output/TextReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kl::sim::test {

namespace {

/// out = in0 + in1 + in2 + in3, elementwise over [128, cols] bf16, in `chunks` pieces: each piece loads four
/// tiles of [128, cols / chunks], adds them into the first and stores it. With one chunk of 32768 columns the
/// four 64 KiB-per-partition tiles need 256 KiB per partition: more than trn1's 192 KiB SBUF. With four chunks
/// every piece needs 64 KiB.
/// Lines: tiles declared at 11..14, loads at 21..24, adds at 31..33, the store at 41.
KernelIr sumOfFour(std::int64_t cols, std::int64_t chunks) {
    TestIr t;
    std::vector<int> in;
    for (int i = 0; i < 4; ++i) {
        in.push_back(t.buffer("in" + std::to_string(i), "hbm", {128, cols}));
    }
    const int out = t.buffer("out", "hbm", {128, cols});
    const std::int64_t w = cols / chunks;
    for (std::int64_t c = 0; c < chunks; ++c) {
        std::vector<int> tile;
        for (int i = 0; i < 4; ++i) {
            tile.push_back(t.buffer("t" + std::to_string(i), "sbuf", {128, w}));
            t.declare(tile.back(), 11 + i);
        }
        for (int i = 0; i < 4; ++i) {
            t.add("dma_copy", "dma", {t.whole(tile[i])}, {t.hbm(in[i], c * w, 128, w, cols)}, {}, 21 + i);
        }
        for (int i = 1; i < 4; ++i) {
            t.add("tensor_tensor", "vector", {t.whole(tile[0])}, {t.whole(tile[0]), t.whole(tile[i])}, {{"op0", "add"}},
                  30 + i);
        }
        t.add("dma_copy", "dma", {t.hbm(out, c * w, 128, w, cols)}, {t.whole(tile[0])}, {}, 41);
    }
    return t.load();
}

std::size_t countKind(const SimResult& r, DmaKind kind) {
    return static_cast<std::size_t>(std::count_if(r.spills.transfers.begin(), r.spills.transfers.end(),
                                                  [&](const SpillTransfer& s) { return s.kind == kind; }));
}

} // namespace

TEST(Spill, SbufOverflowSpillsAndReloadsTheTileUsedLast) {
    const KernelIr ir = sumOfFour(32768, 1);
    const auto r = *Simulator::run(ir, profile("trn1"));
    // Loading t3 finds t0, t1, t2 resident (192 KiB): t2, whose next use (the second add) is furthest away,
    // goes out to HBM and comes back for that add.
    ASSERT_EQ(r->spills.transfers.size(), 2u);
    EXPECT_EQ(countKind(*r, DmaKind::Spill), 1u);
    EXPECT_EQ(countKind(*r, DmaKind::Reload), 1u);
    const SpillTransfer& out = r->spills.transfers[0];
    const SpillTransfer& back = r->spills.transfers[1];
    EXPECT_EQ(out.kind, DmaKind::Spill);
    EXPECT_EQ(ir.buffers()[out.buffer].name, "t2");
    EXPECT_EQ(out.forIndex, 3u); // the load of t3
    EXPECT_EQ(back.buffer, out.buffer);
    EXPECT_EQ(back.forIndex, 5u); // t0 += t2
    EXPECT_GE(back.startPs, out.endPs);
    EXPECT_EQ(out.bytes, 128 * 32768 * 2);
    EXPECT_EQ(r->spills.sbuf.bytes, 2 * out.bytes);
    EXPECT_EQ(r->spills.sbuf.transfers, 2u);
    EXPECT_EQ(r->spills.sbuf.reloads, 1u);
    EXPECT_EQ(r->spills.sbuf.tiles, 1u);
    EXPECT_EQ(r->summary.spillBytes, 2 * out.bytes);
    EXPECT_EQ(r->summary.spillTransfers, 2u);
    EXPECT_EQ(r->spills.psum.transfers, 0u);
    // Real DMA traffic: on a DMA queue lane, through the shared pool (8 MiB at most 272 B/ns after 1.3 us).
    EXPECT_GE(out.lane, kComputeLanes);
    EXPECT_GE(out.endPs - out.startPs, 1'300'000 + out.bytes * 1000 / 272);
    EXPECT_EQ(r->dma.transfers, 5u + 2u);
    // Nothing overflows any more: the spill made room, occupancy stays within SBUF.
    EXPECT_EQ(r->sbuf.overflowCount, 0u);
    EXPECT_LE(r->sbuf.peakPartitionBytes, r->sbuf.capacityPartitionBytes);
    EXPECT_EQ(r->sbuf.tiles, 4u); // the reload brings back a tile, it is not a new one
    // The load of t3 waited for the room the spill made, the add for the reload.
    const TimelineData& tl = r->timeline;
    EXPECT_EQ(tl.cause(3), WaitCause::Spill);
    EXPECT_GE(tl.startPs(3), out.endPs);
    EXPECT_EQ(tl.cause(5), WaitCause::Spill);
    EXPECT_GE(tl.startPs(5), back.endPs);
    EXPECT_EQ(r->waits.count[static_cast<std::size_t>(WaitCause::Spill)], 2u);
    // The warning names the tile, the line that declared it and the line that needed the room.
    const auto warning = std::find_if(r->diagnostics.begin(), r->diagnostics.end(),
                                      [](const std::string& d) { return d.find("SBUF spill") != std::string::npos; });
    ASSERT_NE(warning, r->diagnostics.end());
    EXPECT_NE(warning->find("tile 't2' (kernel.py:13)"), std::string::npos) << *warning;
    EXPECT_NE(warning->find("kernel.py:24 (instruction #3)"), std::string::npos) << *warning;
}

TEST(Spill, TheSameSumTiledToFitHasNoSpillsAndIsFaster) {
    const auto big = *Simulator::run(sumOfFour(32768, 1), profile("trn1"));
    const auto tiled = *Simulator::run(sumOfFour(32768, 4), profile("trn1"));
    EXPECT_GT(big->summary.spillTransfers, 0u);
    EXPECT_EQ(tiled->summary.spillTransfers, 0u);
    EXPECT_EQ(tiled->summary.spillBytes, 0);
    EXPECT_TRUE(tiled->spills.transfers.empty());
    EXPECT_EQ(tiled->sbuf.overflowCount, 0u);
    EXPECT_EQ(tiled->waits.count[static_cast<std::size_t>(WaitCause::Spill)], 0u);
    EXPECT_EQ(tiled->summary.dmaBytes + big->summary.spillBytes, big->summary.dmaBytes); // same data, no spills
    EXPECT_LT(tiled->summary.totalPs, big->summary.totalPs);
}

TEST(Spill, JsonIsByteIdenticalAcrossRunsAndListsTheTransfers) {
    const KernelIr ir = sumOfFour(32768, 1);
    const std::string a = ResultJson::write(**Simulator::run(ir, profile("trn1")));
    const std::string b = ResultJson::write(**Simulator::run(ir, profile("trn1")));
    EXPECT_EQ(a, b);
    const auto j = nlohmann::json::parse(a);
    EXPECT_EQ(j["summary"]["spill_bytes"], 2 * 128 * 32768 * 2);
    EXPECT_EQ(j["summary"]["spill_transfers"], 2);
    EXPECT_EQ(j["memory"]["sbuf"]["spill_transfers"], 2);
    EXPECT_EQ(j["memory"]["sbuf"]["spilled_tiles"], 1);
    EXPECT_EQ(j["memory"]["psum"]["spill_bytes"], 0);
    EXPECT_EQ(j["wait_causes"]["spill"]["count"], 2);
    const auto& rows = j["spill_transfers"]["rows"];
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][0], "spill");
    EXPECT_EQ(rows[1][0], "reload");
    EXPECT_EQ(rows[0][1], "sbuf");
    EXPECT_EQ(j["spill_transfers"]["columns"][0], "kind");
    EXPECT_EQ(j["instructions"]["rows"][5][6], "spill");
}

TEST(Spill, TextSummaryShowsTheSpilledMemoryAndTheWarning) {
    const std::string text = TextReport::summary(**Simulator::run(sumOfFour(32768, 1), profile("trn1")));
    EXPECT_NE(text.find("1 tile(s) SPILLED (2 transfers, 16.00 MiB)"), std::string::npos) << text;
    EXPECT_NE(text.find("spill                  2 instrs"), std::string::npos) << text;
    EXPECT_NE(text.find("warning: SBUF spill: tile 't2' (kernel.py:13)"), std::string::npos) << text;
    const std::string fits = TextReport::summary(**Simulator::run(sumOfFour(32768, 4), profile("trn1")));
    EXPECT_EQ(fits.find("SPILLED"), std::string::npos) << fits;
}

TEST(Spill, PsumOverflowSpillsAnAccumulationTile) {
    // Nine accumulation tiles of one 2 KiB bank each live at once; PSUM has eight banks.
    TestIr t;
    const int st = t.buffer("st", "sbuf", {128, 128});
    const int mv = t.buffer("mv", "sbuf", {128, 512});
    const int res = t.buffer("res", "sbuf", {128, 512}, "float32");
    t.add("memset", "vector", {t.whole(st)}, {});
    t.add("memset", "vector", {t.whole(mv)}, {});
    std::vector<int> acc;
    for (int i = 0; i < 9; ++i) {
        acc.push_back(t.buffer("acc" + std::to_string(i), "psum", {128, 512}, "float32"));
        t.declare(acc.back(), 50 + i);
        t.add("nc_matmul", "tensor", {t.whole(acc.back())}, {t.whole(st), t.whole(mv)}, {}, 60);
    }
    std::vector<int> copies;
    for (int i = 0; i < 9; ++i) {
        copies.push_back(
            t.add("tensor_tensor", "vector", {t.whole(res)}, {t.whole(res), t.whole(acc[i])}, {{"op0", "add"}}, 70));
    }
    const KernelIr ir = t.load();
    const auto r = *Simulator::run(ir, profile("trn1"));
    // The ninth matmul spills acc7 (read last of the resident ones); its reader gets it back.
    ASSERT_EQ(r->spills.transfers.size(), 2u);
    EXPECT_EQ(r->spills.transfers[0].memory, Memory::Psum);
    EXPECT_EQ(ir.buffers()[r->spills.transfers[0].buffer].name, "acc7");
    EXPECT_EQ(r->spills.psum.transfers, 2u);
    EXPECT_EQ(r->spills.psum.bytes, 2 * 128 * 2048);
    EXPECT_EQ(r->spills.sbuf.transfers, 0u);
    EXPECT_EQ(r->psum.overflowCount, 0u);
    EXPECT_LE(r->psum.peakPartitionBytes, r->psum.capacityPartitionBytes);
    const TimelineData& tl = r->timeline;
    EXPECT_EQ(tl.cause(10), WaitCause::Spill); // the ninth matmul waited for the room
    EXPECT_EQ(tl.cause(static_cast<std::size_t>(copies[7])), WaitCause::Spill);
    EXPECT_GE(tl.startPs(static_cast<std::size_t>(copies[7])), r->spills.transfers[1].endPs);
    const auto warning = std::find_if(r->diagnostics.begin(), r->diagnostics.end(),
                                      [](const std::string& d) { return d.find("PSUM spill") != std::string::npos; });
    ASSERT_NE(warning, r->diagnostics.end());
    EXPECT_NE(warning->find("tile 'acc7' (kernel.py:57)"), std::string::npos) << *warning;
    EXPECT_NE(warning->find("kernel.py:60 (instruction #10)"), std::string::npos) << *warning;
}

TEST(Spill, OneInstructionsOwnTilesTooBigStillOverflow) {
    // c = a + b needs a and b (128 KiB each) at once: nothing else can leave, so it overflows.
    TestIr t;
    const int a = t.buffer("a", "sbuf", {128, 65536});
    const int b = t.buffer("b", "sbuf", {128, 65536});
    const int c = t.buffer("c", "sbuf", {128, 512});
    t.add("memset", "vector", {t.whole(a)}, {});
    t.add("memset", "vector", {t.whole(b)}, {}); // spills a
    t.add("tensor_tensor", "vector", {t.whole(c)}, {t.part(a, 0, 128, 0, 512), t.part(b, 0, 128, 0, 512)});
    const auto r = *Simulator::run(t.load(), profile("trn1"));
    EXPECT_EQ(r->spills.sbuf.transfers, 2u); // a out, a back
    EXPECT_EQ(r->sbuf.overflowCount, 1u);    // a's reload, with b resident and used by the same add
    EXPECT_GT(r->sbuf.peakPartitionBytes, r->sbuf.capacityPartitionBytes);
    ASSERT_FALSE(r->diagnostics.empty());
    EXPECT_NE(r->diagnostics.back().find("SBUF"), std::string::npos);
    EXPECT_NE(r->diagnostics.back().find("did not fit even after spilling"), std::string::npos);
}

TEST(Spill, LoadStationaryWaitsForItsSpilledWeights) {
    TestIr t;
    const int st = t.buffer("st", "sbuf", {128, 128});
    const int big1 = t.buffer("big1", "sbuf", {128, 65536});
    const int big2 = t.buffer("big2", "sbuf", {128, 32768});
    const int mv = t.buffer("mv", "sbuf", {128, 512});
    const int acc = t.buffer("acc", "psum", {128, 512}, "float32");
    t.add("memset", "vector", {t.whole(st)}, {});   // 0
    t.add("memset", "vector", {t.whole(big1)}, {}); // 1
    t.add("memset", "vector", {t.whole(big2)}, {}); // 2: SBUF full, st (used last) goes out
    t.add("memset", "vector", {t.whole(big1)}, {}); // 3: last use of big1
    t.add("memset", "vector", {t.whole(big2)}, {}); // 4: last use of big2
    t.add("memset", "scalar", {t.whole(mv)}, {});   // 5: ready soon after big1 leaves, as is room for st
    t.add("nc_matmul", "tensor", {t.whole(acc)}, {t.whole(st), t.whole(mv)}); // 6: st comes back
    const auto r = *Simulator::run(t.load(), profile("trn1"));
    ASSERT_EQ(r->spills.transfers.size(), 2u);
    const SpillTransfer& back = r->spills.transfers[1];
    EXPECT_EQ(back.kind, DmaKind::Reload);
    EXPECT_EQ(back.buffer, static_cast<std::uint32_t>(st));
    EXPECT_EQ(back.forIndex, 6u);
    const TimelineData& tl = r->timeline;
    ASSERT_TRUE(tl.hasLoadStationary(6));
    EXPECT_GE(tl.lsStartPs(tl.lsOf(6)), back.endPs);
    EXPECT_EQ(tl.cause(6), WaitCause::Spill);
}

TEST(Spill, ATileLargerThanSbufAloneSpillsNothing) {
    // 256 KiB per partition: no spill can make room for it, so the live tile stays and the new one overflows.
    TestIr t;
    const int a = t.buffer("a", "sbuf", {128, 32768});
    const int huge = t.buffer("huge", "sbuf", {128, 131072});
    t.add("memset", "vector", {t.whole(a)}, {});
    t.add("memset", "vector", {t.whole(huge)}, {});
    t.add("tensor_copy", "vector", {t.part(a, 0, 128, 0, 512)}, {t.part(huge, 0, 128, 0, 512)});
    const auto r = *Simulator::run(t.load(), profile("trn1"));
    EXPECT_TRUE(r->spills.transfers.empty());
    EXPECT_EQ(r->sbuf.overflowCount, 1u);
}

} // namespace kl::sim::test
