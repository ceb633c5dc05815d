#include "findings/rules/RooflineRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 2> kThresholds = {"min_attained_pct", "engine_busy_pct"};
constexpr std::array<std::string_view, 3> kOtherEngines = {"VectorE", "ScalarE", "GpSimdE"};
} // namespace

std::span<const std::string_view> RooflineRule::thresholds() const {
    return kThresholds;
}

void RooflineRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const double flops = in.result.summary.flops;
    const auto hbmBytes = static_cast<double>(in.result.dma.hbmBytes);
    if (f.totalPs() <= 0 || (flops <= 0 && hbmBytes <= 0)) {
        return;
    }
    const double ns = static_cast<double>(f.totalPs()) / 1000.0;
    const double peak = in.hardware.peakFlopsPerNs();
    const double roof = memoryRoofBytesPerNs(in.hardware);
    const double ridge = ridgeFlopsPerByte(in.hardware);
    const double achievedFlops = flops / ns;
    const double achievedBytes = hbmBytes / ns;
    const double intensity = hbmBytes > 0 ? flops / hbmBytes : 0.0;
    const double leastTraffic = f.tensorBytes() > 0 ? flops / f.tensorBytes() : 0.0;
    const bool computeBound = flops > 0 && (hbmBytes <= 0 || intensity >= ridge);
    const double attained = computeBound ? pct(achievedFlops, peak) : pct(achievedBytes, roof);
    const double minAttained = settings.value("min_attained_pct");

    // A kernel the roofline calls memory-bound may be held below the memory roof by VectorE, ScalarE or GpSimdE,
    // which the roofline (TensorE FLOPs only) does not see: then that engine, not HBM, is the limit.
    std::size_t busiest = 0;
    double busiestPct = 0;
    for (std::size_t e = 0; e < kOtherEngines.size(); ++e) {
        const double p = f.pctOfRun(f.engineBusyPs(static_cast<sim::SummaryEngine>(e + 1)));
        if (p > busiestPct) {
            busiest = e;
            busiestPct = p;
        }
    }
    const bool heldByEngine = !computeBound && busiestPct >= settings.value("engine_busy_pct");

    Finding finding = makeFinding(settings);
    finding.severity = attained < minAttained && !heldByEngine ? settings.severity : Severity::Nit;
    if (computeBound) {
        finding.title = fmt::format("Roofline: compute-bound, {:.0f} % of TensorE's BF16 peak", attained);
    } else if (heldByEngine) {
        finding.title = fmt::format("Roofline: memory-bound by intensity, held to {:.0f} % of the DMA bandwidth by {} "
                                    "(busy {:.0f} %)",
                                    attained, kOtherEngines[busiest], busiestPct);
    } else {
        finding.title = fmt::format("Roofline: memory-bound, {:.0f} % of the DMA bandwidth from HBM", attained);
    }
    finding.figures = {
        figure("attained_pct", attained, "%", minAttained),
        figure("achieved_flop_per_ns", achievedFlops, "FLOP/ns"),
        figure("peak_flop_per_ns", peak, "FLOP/ns"),
        figure("achieved_hbm_bytes_per_ns", achievedBytes, "B/ns"),
        figure("memory_roof_bytes_per_ns", roof, "B/ns"),
        figure("hbm_peak_bytes_per_ns", in.hardware.hbmBytesPerNs, "B/ns"),
        figure("arithmetic_intensity", intensity, "FLOP/B"),
        figure("ridge_intensity", ridge, "FLOP/B"),
        figure("least_traffic_intensity", leastTraffic, "FLOP/B"),
        figure("busiest_other_engine_pct", busiestPct, "%", settings.value("engine_busy_pct")),
    };
    EvidenceItem run;
    run.note = fmt::format("the whole run: {:.3g} FLOP from matmuls, {:.3g} B moved to or from HBM", flops, hbmBytes);
    run.times = {{0, f.totalPs()}};
    finding.evidence.push_back(std::move(run));
    if (computeBound) {
        finding.suggestion = "TensorE is the limit: keep it fed back to back (full 128x128 stationary tiles, 512-wide "
                             "moving tiles, BF16 or FP8 operands) and take everything else off its critical path.";
    } else if (heldByEngine) {
        finding.suggestion = fmt::format("{} sets the pace, not HBM (see engine-bound): lighten its work per byte "
                                         "before moving bytes faster.",
                                         kOtherEngines[busiest]);
    } else if (flops > 0 && leastTraffic >= ridge) {
        finding.suggestion = "The kernel moves more bytes than its arithmetic needs: loading each operand once per "
                             "reuse window (operands kept in SBUF across the loops that reuse them) would make it "
                             "compute-bound.";
    } else {
        finding.suggestion = "Memory-bound by nature: the limit is bytes per second, so move each byte once, in large "
                             "transfers (2 KiB or more per partition), with enough transfers in flight.";
    }
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
