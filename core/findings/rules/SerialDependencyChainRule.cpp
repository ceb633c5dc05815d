#include "findings/rules/SerialDependencyChainRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 2> kThresholds = {"min_chain_length", "min_handoff_pct"};

struct Chain {
    std::vector<std::uint32_t> indices;
    sim::TimePs startPs = 0;
    sim::TimePs endPs = 0;
    sim::Engine engine = sim::Engine::Vector;
};

} // namespace

std::span<const std::string_view> SerialDependencyChainRule::thresholds() const {
    return kThresholds;
}

void SerialDependencyChainRule::check(const FindingsInput& in, const RuleSettings& settings,
                                      std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const auto& tl = in.result.timeline;
    const auto& instructions = in.ir.instructions();
    const auto minLength = static_cast<std::size_t>(settings.value("min_chain_length"));
    // Open chain per engine (Vector, Scalar, GpSimd: TensorE's dependent matmuls are accumulation groups).
    std::array<Chain, 3> open;
    std::vector<Chain> longChains;
    auto close = [&](Chain& c) {
        if (c.indices.size() >= minLength) {
            longChains.push_back(std::move(c));
        }
        c = Chain{};
    };
    for (std::uint32_t i = 0; i < instructions.size() && i < tl.size(); ++i) {
        const sim::Engine e = instructions[i].engine;
        if (e != sim::Engine::Vector && e != sim::Engine::Scalar && e != sim::Engine::GpSimd) {
            continue;
        }
        Chain& c = open[static_cast<std::size_t>(e) - static_cast<std::size_t>(sim::Engine::Vector)];
        const bool continues =
            !c.indices.empty() && tl.cause(i) == sim::WaitCause::Dependency && tl.waitOn(i) == c.indices.back();
        if (!continues) {
            close(c);
            c.startPs = tl.startPs(i);
            c.engine = e;
        }
        c.indices.push_back(i);
        c.endPs = tl.endPs(i);
    }
    for (Chain& c : open) {
        close(c);
    }
    // What the chains cost beyond their work: the static overhead each dependent hand-off pays (the profile's
    // static_overhead cycles at the engine's clock).
    auto handoffPs = [&](const Chain& c) {
        const double ghz = c.engine == sim::Engine::Vector   ? in.hardware.vectorGhz
                           : c.engine == sim::Engine::Scalar ? in.hardware.scalarGhz
                                                             : in.hardware.gpsimdGhz;
        return ghz > 0 ? static_cast<double>(c.indices.size() - 1) * in.hardware.costs.staticOverhead / ghz * 1000.0
                       : 0.0;
    };
    double lostPs = 0;
    sim::TimePs chainPs = 0;
    for (const Chain& c : longChains) {
        lostPs += handoffPs(c);
        chainPs += c.endPs - c.startPs;
    }
    const double lostPct = pct(lostPs, static_cast<double>(f.totalPs()));
    if (longChains.empty() || lostPct < settings.value("min_handoff_pct")) {
        return;
    }
    std::stable_sort(longChains.begin(), longChains.end(),
                     [](const Chain& a, const Chain& b) { return a.endPs - a.startPs > b.endPs - b.startPs; });
    Finding finding = makeFinding(settings);
    finding.figures = {
        figure("handoff_overhead_pct", lostPct, "%", settings.value("min_handoff_pct")),
        figure("chain_time_pct", f.pctOfRun(chainPs), "%"),
        figure("longest_chain", static_cast<double>(longChains.front().indices.size()), "instructions",
               settings.value("min_chain_length")),
        figure("long_chains", static_cast<double>(longChains.size()), "chains"),
    };
    for (std::size_t k = 0; k < longChains.size() && k < 3; ++k) {
        const Chain& c = longChains[k];
        finding.evidence.push_back(in.evidence.item(
            fmt::format("{} instructions on {}, each waiting for the one before: {} in all, {} of it hand-offs",
                        c.indices.size(), sim::engineLabel(c.engine), sim::formatDuration(c.endPs - c.startPs),
                        sim::formatDuration(static_cast<sim::TimePs>(handoffPs(c)))),
            c.indices));
    }
    finding.suggestion =
        "Break the chain: interleave independent tiles (work on two tiles alternately) so the engine never waits on "
        "its own previous result, or hand independent steps to another engine (ScalarE, GpSimdE); fuse steps where "
        "one instruction can do two (tensor_scalar with two ops, activation with scale and bias).";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
