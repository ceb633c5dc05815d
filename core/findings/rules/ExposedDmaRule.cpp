#include "findings/rules/ExposedDmaRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 3> kThresholds = {"min_exposed_pct", "min_hideable_pct", "major_hideable_pct"};

/// A transfer that did not start when issued because it waited for a dependency or for room.
bool heldBack(sim::WaitCause c) {
    return c == sim::WaitCause::Dependency || c == sim::WaitCause::SbufCapacity || c == sim::WaitCause::PsumCapacity;
}
/// Exposed DMA between the first and the last compute while held-back transfers run. Only that can overlap
/// compute: the first loads and last stores are exposed whatever a kernel does, and transfers issued at once and
/// slowed by shared bandwidth are DMA-bound, not badly overlapped (no buffering would make them finish sooner).
Intervals heldExposure(const FindingsInput& in) {
    const RunFacts& f = in.facts;
    const Intervals window = {{f.computeBusy().front().first, f.computeBusy().back().second}};
    const Intervals inWindow = subtract(f.exposedDma(), subtract(f.exposedDma(), window));
    const auto& tl = in.result.timeline;
    Intervals held;
    for (const DmaTransfer& t : f.dma()) {
        if (heldBack(tl.cause(t.index))) {
            held.emplace_back(tl.startPs(t.index), tl.endPs(t.index));
        }
    }
    const Intervals heldMerged = mergedIntervals(std::move(held));
    return subtract(inWindow, subtract(inWindow, heldMerged));
}

/// The held-back transfers that ran during `stretches` (sorted, disjoint).
std::vector<std::uint32_t> heldTransfersDuring(const FindingsInput& in, const std::vector<TimeRange>& stretches) {
    const auto& tl = in.result.timeline;
    std::vector<std::uint32_t> during;
    for (const DmaTransfer& t : in.facts.dma()) {
        if (!heldBack(tl.cause(t.index))) {
            continue;
        }
        const sim::TimePs s = tl.startPs(t.index);
        const auto it = std::lower_bound(stretches.begin(), stretches.end(), s,
                                         [](const TimeRange& r, sim::TimePs t0) { return r.endPs <= t0; });
        if (it != stretches.end() && it->startPs < tl.endPs(t.index)) {
            during.push_back(t.index);
        }
    }
    return during;
}

} // namespace

std::span<const std::string_view> ExposedDmaRule::thresholds() const {
    return kThresholds;
}

void ExposedDmaRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    if (f.totalPs() <= 0 || f.dma().empty()) {
        return;
    }
    if (f.computeBusy().empty()) {
        return; // nothing to overlap with
    }
    const sim::TimePs exposed = totalLength(f.exposedDma());
    const Intervals exposedInside = heldExposure(in);
    const sim::TimePs exposedMid = totalLength(exposedInside);
    const sim::TimePs computeOnly = totalLength(subtract(f.computeBusy(), f.dmaBusy()));
    // What perfect overlap could save: the DMA-only and compute-only stretches run side by side.
    const sim::TimePs hideable = std::min(exposedMid, computeOnly);
    const double exposedPct = f.pctOfRun(exposedMid);
    const double hideablePct = f.pctOfRun(hideable);
    if (exposedPct < settings.value("min_exposed_pct") || hideablePct < settings.value("min_hideable_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    if (hideablePct >= settings.value("major_hideable_pct")) {
        finding.severity = Severity::Major;
    }
    finding.figures = {
        figure("exposed_held_pct", exposedPct, "%", settings.value("min_exposed_pct")),
        figure("hideable_pct", hideablePct, "%", settings.value("min_hideable_pct")),
        figure("exposed_dma_ns", static_cast<double>(exposed) / 1000.0, "ns"),
        figure("exposed_held_ns", static_cast<double>(exposedMid) / 1000.0, "ns"),
        figure("compute_only_ns", static_cast<double>(computeOnly) / 1000.0, "ns"),
    };
    const std::vector<TimeRange> longest = longestRanges(exposedInside);
    EvidenceItem stretches;
    stretches.note = fmt::format("{} stretches with every compute engine idle while held-back transfers ran, {} "
                                 "in all",
                                 exposedInside.size(), sim::formatDuration(exposedMid));
    stretches.times = longest;
    finding.evidence.push_back(std::move(stretches));
    const std::vector<std::uint32_t> during = heldTransfersDuring(in, longest);
    addLineEvidence(in, during, 3, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} transfers that waited for a buffer or a result, then ran with compute idle",
                           in.evidence.where(g.loc), g.indices.size());
    });
    finding.suggestion =
        "Start the loads for the next tile while the engines work on the current one: give each in-flight tile its "
        "own buffer (allocate inside the loop or rotate two or three buffers) and issue loads a tile ahead.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
