#include "findings/rules/TensorIdleWaitingRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 2> kThresholds = {"min_idle_pct", "major_idle_pct"};
}

std::span<const std::string_view> TensorIdleWaitingRule::thresholds() const {
    return kThresholds;
}

void TensorIdleWaitingRule::check(const FindingsInput& in, const RuleSettings& settings,
                                  std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const auto& tl = in.result.timeline;
    const auto& instructions = in.ir.instructions();
    std::vector<std::uint32_t> waiting;
    std::vector<std::uint32_t> heldLoads;
    sim::TimePs idlePs = 0;
    for (std::uint32_t i = 0; i < instructions.size() && i < tl.size(); ++i) {
        if (instructions[i].op != sim::Op::NcMatmul || tl.cause(i) != sim::WaitCause::Dependency) {
            continue;
        }
        const std::uint32_t load = tl.waitOn(i);
        const DmaTransfer* t = f.transferAt(load);
        // The load itself waited for an instruction that still used its destination: one buffer for every tile.
        if (t == nullptr || t->direction != DmaDirection::Load || tl.cause(load) != sim::WaitCause::Dependency) {
            continue;
        }
        waiting.push_back(i);
        heldLoads.push_back(load);
        idlePs += tl.stallPs(i);
    }
    const double idlePct = f.pctOfRun(idlePs);
    if (waiting.empty() || idlePct < settings.value("min_idle_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    if (idlePct >= settings.value("major_idle_pct")) {
        finding.severity = Severity::Major;
    }
    finding.figures = {
        figure("tensor_idle_waiting_pct", idlePct, "%", settings.value("min_idle_pct")),
        figure("tensor_idle_waiting_ns", static_cast<double>(idlePs) / 1000.0, "ns"),
        figure("waiting_matmuls", static_cast<double>(waiting.size()), "instructions"),
    };
    addLineEvidence(in, waiting, 2, finding.evidence, [&](const LineGroup& g) {
        sim::TimePs stall = 0;
        for (const std::uint32_t i : g.indices) {
            stall += tl.stallPs(i);
        }
        return fmt::format("{}: {} matmuls waited {} in all for an operand load", in.evidence.where(g.loc),
                           g.indices.size(), sim::formatDuration(stall));
    });
    std::sort(heldLoads.begin(), heldLoads.end());
    heldLoads.erase(std::unique(heldLoads.begin(), heldLoads.end()), heldLoads.end());
    addLineEvidence(in, heldLoads, 2, finding.evidence, [&](const LineGroup& g) {
        const std::uint32_t first = g.indices.front();
        return fmt::format("{}: {} loads could not start before the previous user of their tile finished (e.g. #{} "
                           "waited for #{})",
                           in.evidence.where(g.loc), g.indices.size(), first, tl.waitOn(first));
    });
    finding.suggestion =
        "Double-buffer the operand tiles: allocate them inside the loop (or rotate two or three buffers) so the load "
        "for the next matmul runs while TensorE works on the current one.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
