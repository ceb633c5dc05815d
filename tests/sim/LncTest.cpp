#include "TestIr.h"

#include "engine/Simulator.h"
#include "ir/IrLoader.h"
#include "output/ResultJson.h"
#include "output/TextReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::sim::test {

namespace {

/// `programs` SPMD programs; program p loads `loads` [128, cols] bf16 tiles of its own rows of an HBM input,
/// adds them up on VectorE and stores the sum (when `compute`). Program p's instructions carry pid [p]; the IR
/// says grid [programs] and kernel.lnc `lnc` (absent for 1). `idle` programs (from that id on) do nothing.
KernelIr spmd(int programs, int lnc, int loads, std::int64_t cols, bool compute = true, int idle = 1 << 30) {
    TestIr t;
    const int in = t.buffer("in", "hbm", {128L * loads * programs, cols});
    const int out = t.buffer("out", "hbm", {128L * programs, cols});
    std::vector<int> owner; // program of each instruction
    for (int p = 0; p < programs; ++p) {
        if (p >= idle) {
            continue;
        }
        std::vector<int> tiles;
        for (int k = 0; k < loads; ++k) {
            tiles.push_back(t.buffer("x", "sbuf", {128, cols}));
            t.add("dma_copy", "dma", {t.whole(tiles.back())},
                  {t.hbm(in, (static_cast<std::int64_t>(p) * loads + k) * 128 * cols, 128, cols, cols)}, {}, 10);
            owner.push_back(p);
        }
        if (compute) {
            for (int k = 1; k < loads; ++k) {
                t.add("tensor_tensor", "vector", {t.whole(tiles[0])}, {t.whole(tiles[0]), t.whole(tiles[k])},
                      {{"op0", "add"}}, 20);
                owner.push_back(p);
            }
            t.add("dma_copy", "dma", {t.hbm(out, static_cast<std::int64_t>(p) * 128 * cols, 128, cols, cols)},
                  {t.whole(tiles[0])}, {}, 30);
            owner.push_back(p);
        }
    }
    auto doc = nlohmann::ordered_json::parse(t.str());
    doc["kernel"]["grid"] = {programs};
    if (lnc != 1) {
        doc["kernel"]["lnc"] = lnc;
    }
    for (std::size_t i = 0; i < owner.size(); ++i) {
        doc["instructions"][i]["pid"] = {owner[i]};
    }
    auto ir = IrLoader::loadString(doc.dump());
    EXPECT_TRUE(ir.has_value()) << (ir ? "" : ir.error().message);
    return std::move(*ir);
}

std::shared_ptr<const SimResult> simulate(const KernelIr& ir, const std::string& hw = "trn2") {
    auto r = Simulator::run(ir, profile(hw));
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
    return *r;
}

} // namespace

TEST(Lnc, ProgramsRunOnTheCoreOfTheirProgramId) {
    const auto r = simulate(spmd(2, 2, 4, 2048));
    ASSERT_EQ(r->lnc, 2u);
    ASSERT_EQ(r->cores.size(), 2u);
    ASSERT_GT(r->lanesPerCore, 0u);
    EXPECT_EQ(r->laneCount, 2 * r->lanesPerCore);
    const auto& tl = r->timeline;
    const std::size_t half = tl.size() / 2;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        EXPECT_EQ(laneCore(tl.lane(i), r->lanesPerCore), i < half ? 0u : 1u) << "instruction " << i;
    }
    // Each core has its own engines: core 1's vector work is on its own vector lane, not queued behind core 0's.
    EXPECT_EQ(r->cores[0].instructionCount, half);
    EXPECT_EQ(r->cores[1].instructionCount, tl.size() - half);
    EXPECT_EQ(r->cores[0].engine(sim::Engine::Vector).instructions, 3u);
    EXPECT_EQ(r->cores[1].engine(sim::Engine::Vector).instructions, 3u);
    EXPECT_EQ(r->laneLabel(static_cast<std::uint16_t>(r->lanesPerCore + 2)), "c1.vector");
}

TEST(Lnc, BlocksOfTheFirstGridAxisGoToOneCore) {
    // grid [4] on two cores: programs 0 and 1 on core 0, 2 and 3 on core 1 (nl.spmd_dim(nl.nc(2), 2)).
    const auto r = simulate(spmd(4, 2, 2, 1024));
    const auto& tl = r->timeline;
    const std::size_t perProgram = tl.size() / 4;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        EXPECT_EQ(laneCore(tl.lane(i), r->lanesPerCore), i / perProgram < 2 ? 0u : 1u) << "instruction " << i;
    }
}

TEST(Lnc, TwoCoresFinishSoonerThanOneRunningBothPrograms) {
    const auto one = simulate(spmd(2, 1, 4, 2048));
    const auto two = simulate(spmd(2, 2, 4, 2048));
    EXPECT_LT(two->summary.totalPs, one->summary.totalPs);
    EXPECT_GT(two->summary.totalPs * 2, one->summary.totalPs) << "no more than twice as fast";
    // Each core on its own engines: the per-core figures add up to the total.
    EXPECT_EQ(two->cores[0].instructionCount + two->cores[1].instructionCount, two->summary.instructionCount);
    EXPECT_EQ(two->cores[0].dmaBytes + two->cores[1].dmaBytes, two->summary.dmaBytes);
    EXPECT_EQ(std::max(two->cores[0].totalPs, two->cores[1].totalPs), two->summary.totalPs);
}

TEST(Lnc, EachCoreReportsThePeakOfItsOwnSbuf) {
    // Program 1 does nothing: core 1's SBUF stays empty and core 0's peak is the whole run's.
    const auto lopsided = simulate(spmd(2, 2, 4, 2048, true, 1));
    ASSERT_EQ(lopsided->cores.size(), 2u);
    EXPECT_GT(lopsided->cores[0].sbufPeakBytes, 0);
    EXPECT_EQ(lopsided->cores[1].sbufPeakBytes, 0);
    EXPECT_EQ(lopsided->cores[0].sbufPeakBytes, lopsided->summary.sbufPeakBytes);
    // Both busy: each core holds its own tiles, so neither alone reaches the pair's peak, and together they do.
    const auto both = simulate(spmd(2, 2, 4, 2048));
    EXPECT_GT(both->cores[1].sbufPeakBytes, 0);
    EXPECT_LT(both->cores[0].sbufPeakBytes, both->summary.sbufPeakBytes);
    EXPECT_GE(both->cores[0].sbufPeakBytes + both->cores[1].sbufPeakBytes, both->summary.sbufPeakBytes);
    EXPECT_NE(TextReport::summary(*both, "").find("SBUF peak"), std::string::npos);
}

TEST(Lnc, HbmBandwidthIsSharedByTheTwoCores) {
    // DMA only, 16 loads of 512 KiB per program: bandwidth bound.
    const auto both = simulate(spmd(2, 2, 16, 2048, false));
    const auto alone = simulate(spmd(2, 2, 16, 2048, false, /*idle=*/1)); // core 1 has nothing to do
    const auto single = simulate(spmd(1, 1, 16, 2048, false));
    // The pair draws from one pool (twice a core's): two cores moving N each take longer than one core moving N
    // while its partner idles, as long as one core moving N on a logical core of one (the pool doubles with the
    // bytes), and less than the two moved one after the other.
    EXPECT_GT(both->summary.totalPs, alone->summary.totalPs);
    EXPECT_GE(both->summary.totalPs * 100, single->summary.totalPs * 99);
    EXPECT_LT(both->summary.totalPs, 2 * single->summary.totalPs);
    EXPECT_EQ(both->dma.queues, 2 * static_cast<std::uint32_t>(profile("trn2").dma.queues));
}

TEST(Lnc, RefusedOnAProfileWithoutLogicalCores) {
    const auto r = Simulator::run(spmd(2, 2, 2, 512), profile("trn1"));
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("trn1 has no logical NeuronCores"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().hint.find("trn2"), std::string::npos);
    EXPECT_EQ(profile("trn1").maxLnc, 1);
    EXPECT_EQ(profile("trn2").maxLnc, 2);
    EXPECT_EQ(profile("trn3").maxLnc, 2);
}

TEST(Lnc, LoaderRefusesOtherDegrees) {
    TestIr t;
    auto doc = nlohmann::ordered_json::parse(t.str());
    doc["kernel"]["lnc"] = 3;
    const auto ir = IrLoader::loadString(doc.dump());
    ASSERT_FALSE(ir.has_value());
    EXPECT_NE(ir.error().message.find("lnc"), std::string::npos) << ir.error().message;
}

TEST(Lnc, SummariesPerCoreInJsonAndText) {
    const auto r = simulate(spmd(2, 2, 2, 1024));
    const auto json = nlohmann::json::parse(ResultJson::write(*r));
    ASSERT_EQ(json["lnc"], 2);
    ASSERT_EQ(json["cores"].size(), 2u);
    EXPECT_EQ(json["cores"][0]["instruction_count"].get<std::uint64_t>() +
                  json["cores"][1]["instruction_count"].get<std::uint64_t>(),
              json["summary"]["instruction_count"].get<std::uint64_t>());
    EXPECT_EQ(json["lanes"][r->lanesPerCore], "c1.pe.ls");
    const std::string text = TextReport::summary(*r, "");
    EXPECT_NE(text.find("core 1  ends"), std::string::npos) << text;

    const auto single = simulate(spmd(2, 1, 2, 1024));
    const auto one = nlohmann::json::parse(ResultJson::write(*single));
    EXPECT_FALSE(one.contains("lnc")) << "a single-core result keeps its form";
    EXPECT_FALSE(one.contains("cores"));
    EXPECT_EQ(one["lanes"][0], "pe.ls");
    EXPECT_EQ(TextReport::summary(*single, "").find("Cores"), std::string::npos);
}

} // namespace kl::sim::test
