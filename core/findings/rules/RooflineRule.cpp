#include "findings/rules/RooflineRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 2> kThresholds = {"min_attained_pct", "engine_busy_pct"};
/// The busiest of VectorE, ScalarE and GpSimdE and its busy share of the run.
std::pair<sim::Engine, double> busiestOtherEngine(const RunFacts& f) {
    std::pair<sim::Engine, double> best{sim::Engine::Vector, 0.0};
    for (const sim::Engine e : {sim::Engine::Vector, sim::Engine::Scalar, sim::Engine::GpSimd}) {
        const double p = f.pctOfRun(f.engineBusyPs(e));
        if (p > best.second) {
            best = {e, p};
        }
    }
    return best;
}

std::string suggestionFor(const RooflinePoint& p, bool heldByEngine, std::string_view engine) {
    if (p.computeBound) {
        return "TensorE is the limit: keep it fed back to back (full 128x128 stationary tiles, 512-wide moving tiles, "
               "BF16 or FP8 operands) and take everything else off its critical path.";
    }
    if (heldByEngine) {
        return fmt::format("{} sets the pace, not HBM (see engine-bound): lighten its work per byte before moving "
                           "bytes faster.",
                           engine);
    }
    if (p.flops > 0 && p.leastTrafficIntensity >= p.ridge) {
        return "The kernel moves more bytes than its arithmetic needs: loading each operand once per reuse window "
               "(operands kept in SBUF across the loops that reuse them) would make it compute-bound.";
    }
    return "Memory-bound by nature: the limit is bytes per second, so move each byte once, in large transfers (2 KiB "
           "or more per partition), with enough transfers in flight.";
}

} // namespace

std::span<const std::string_view> RooflineRule::thresholds() const {
    return kThresholds;
}

void RooflineRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const RooflinePoint p = rooflineOf(in.result, in.hardware, f.tensorBytes());
    if (p.ns <= 0 || (p.flops <= 0 && p.hbmBytes <= 0)) {
        return;
    }
    // A kernel the roofline calls memory-bound may be held below the memory roof by VectorE, ScalarE or GpSimdE,
    // which the roofline (TensorE FLOPs only) does not see: then that engine, not HBM, is the limit.
    const auto [busiest, busiestPct] = busiestOtherEngine(f);
    const bool heldByEngine = !p.computeBound && busiestPct >= settings.value("engine_busy_pct");
    const double minAttained = settings.value("min_attained_pct");

    Finding finding = makeFinding(settings);
    finding.severity = p.attainedPct < minAttained && !heldByEngine ? settings.severity : Severity::Nit;
    if (p.computeBound) {
        finding.title = fmt::format("Roofline: compute-bound, {:.0f} % of TensorE's BF16 peak", p.attainedPct);
    } else if (heldByEngine) {
        finding.title = fmt::format("Roofline: memory-bound by intensity, held to {:.0f} % of the DMA bandwidth by {} "
                                    "(busy {:.0f} %)",
                                    p.attainedPct, sim::engineLabel(busiest), busiestPct);
    } else {
        finding.title = fmt::format("Roofline: memory-bound, {:.0f} % of the DMA bandwidth from HBM", p.attainedPct);
    }
    finding.figures = {
        figure("attained_pct", p.attainedPct, "%", minAttained),
        figure("achieved_flop_per_ns", p.achievedFlopsPerNs, "FLOP/ns"),
        figure("peak_flop_per_ns", p.peakFlopsPerNs, "FLOP/ns"),
        figure("achieved_hbm_bytes_per_ns", p.achievedBytesPerNs, "B/ns"),
        figure("memory_roof_bytes_per_ns", p.roofBytesPerNs, "B/ns"),
        figure("hbm_peak_bytes_per_ns", in.hardware.hbmBytesPerNs, "B/ns"),
        figure("arithmetic_intensity", p.intensity, "FLOP/B"),
        figure("ridge_intensity", p.ridge, "FLOP/B"),
        figure("least_traffic_intensity", p.leastTrafficIntensity, "FLOP/B"),
        figure("busiest_other_engine_pct", busiestPct, "%", settings.value("engine_busy_pct")),
    };
    EvidenceItem run;
    run.note =
        fmt::format("the whole run: {:.3g} FLOP from matmuls, {:.3g} B moved to or from HBM", p.flops, p.hbmBytes);
    run.times = {{0, f.totalPs()}};
    finding.evidence.push_back(std::move(run));
    finding.suggestion = suggestionFor(p, heldByEngine, sim::engineLabel(busiest));
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
