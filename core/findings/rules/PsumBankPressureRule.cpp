#include "findings/rules/PsumBankPressureRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 1> kThresholds = {"min_stall_pct"};

/// True when `reader` reads a PSUM tile that `writer` writes: `writer` waiting for it is a write-after-read, the
/// tile being copied out before TensorE may fill it again.
bool evacuates(const sim::KernelIr& ir, const sim::Instruction& reader, const sim::Instruction& writer) {
    for (const sim::AccessPattern& r : ir.srcs(reader)) {
        if (r.buffer >= ir.bufferFacts().size() || ir.bufferFacts()[r.buffer].memory != sim::Memory::Psum) {
            continue;
        }
        for (const sim::AccessPattern& w : ir.dsts(writer)) {
            if (w.buffer == r.buffer) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

std::span<const std::string_view> PsumBankPressureRule::thresholds() const {
    return kThresholds;
}

void PsumBankPressureRule::check(const FindingsInput& in, const RuleSettings& settings,
                                 std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const auto& tl = in.result.timeline;
    const auto& instructions = in.ir.instructions();
    std::vector<std::uint32_t> full;
    std::vector<std::uint32_t> evacuation;
    sim::TimePs fullPs = 0;
    sim::TimePs evacuationPs = 0;
    for (std::uint32_t i = 0; i < instructions.size() && i < tl.size(); ++i) {
        if (tl.cause(i) == sim::WaitCause::PsumCapacity) {
            full.push_back(i);
            fullPs += tl.stallPs(i);
            continue;
        }
        if (instructions[i].engine != sim::Engine::Tensor || tl.cause(i) != sim::WaitCause::Dependency) {
            continue;
        }
        const std::uint32_t w = tl.waitOn(i);
        if (w < instructions.size() && instructions[w].engine != sim::Engine::Tensor &&
            instructions[w].engine != sim::Engine::Dma && evacuates(in.ir, instructions[w], instructions[i])) {
            evacuation.push_back(i);
            evacuationPs += tl.stallPs(i);
        }
    }
    // PSUM full while results are being copied out of it is back-pressure from the copying engine (TensorE is
    // simply faster; more banks would not help): only the part of a wait with no copy out of PSUM running counts.
    Intervals copying;
    for (std::uint32_t i = 0; i < instructions.size() && i < tl.size(); ++i) {
        const sim::Engine e = instructions[i].engine;
        if (e == sim::Engine::Tensor || e == sim::Engine::Dma) {
            continue;
        }
        for (const sim::AccessPattern& ap : in.ir.srcs(instructions[i])) {
            if (ap.buffer < in.ir.bufferFacts().size() && in.ir.bufferFacts()[ap.buffer].memory == sim::Memory::Psum) {
                copying.emplace_back(tl.mainStartPs(i), tl.endPs(i));
                break;
            }
        }
    }
    const Intervals merged = mergedIntervals(std::move(copying));
    sim::TimePs idleFullPs = 0;
    std::vector<std::uint32_t> idleFull;
    for (const std::uint32_t i : full) {
        const Intervals wait = {{tl.mainStartPs(i) - tl.stallPs(i), tl.mainStartPs(i)}};
        const sim::TimePs idle = totalLength(subtract(wait, merged));
        if (idle > 0) {
            idleFullPs += idle;
            idleFull.push_back(i);
        }
    }
    full = std::move(idleFull);
    fullPs = idleFullPs;
    // With tiles that never fit (overflow) the capacity model is past its range: the simulator keeps a tile live
    // from its first to its last use in program order, where the compiler would have rotated or spilled it. Its
    // capacity waits are then an artefact; waits for a tile's own evacuation still count.
    const std::uint32_t overflow = in.result.psum.overflowCount;
    if (overflow > 0) {
        full.clear();
        fullPs = 0;
    }
    const double stallPct = f.pctOfRun(fullPs + evacuationPs);
    if (stallPct < settings.value("min_stall_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    finding.figures = {
        figure("psum_stall_pct", stallPct, "%", settings.value("min_stall_pct")),
        figure("psum_full_idle_wait_ns", static_cast<double>(fullPs) / 1000.0, "ns"),
        figure("psum_evacuation_wait_ns", static_cast<double>(evacuationPs) / 1000.0, "ns"),
        figure("psum_peak_pct", in.result.psum.peakPct(), "%"),
        figure("psum_overflow_tiles", overflow, "tiles"),
    };
    addLineEvidence(in, full, 2, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} instructions waited for a free PSUM bank while nothing was copied out of PSUM",
                           in.evidence.where(g.loc), g.indices.size());
    });
    addLineEvidence(in, evacuation, 2, finding.evidence, [&](const LineGroup& g) {
        sim::TimePs stall = 0;
        for (const std::uint32_t i : g.indices) {
            stall += tl.stallPs(i);
        }
        return fmt::format("{}: {} TensorE instructions waited {} for their PSUM tile to be copied out",
                           in.evidence.where(g.loc), g.indices.size(), sim::formatDuration(stall));
    });
    finding.suggestion =
        "Keep at most 8 accumulation tiles (one 2 KiB bank each) live and rotate two to four PSUM tiles, so TensorE "
        "fills one while VectorE or ScalarE copies another to SBUF; copy each out as soon as its accumulation ends.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
