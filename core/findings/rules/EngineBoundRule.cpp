#include "findings/rules/EngineBoundRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 1> kThresholds = {"min_busy_pct"};

// Indexed by sim::Engine: the four compute engines, then DMA.
constexpr std::array<std::string_view, static_cast<std::size_t>(sim::Engine::Count)> kFigureNames = {
    "tensor_busy_pct", "vector_busy_pct", "scalar_busy_pct", "gpsimd_busy_pct", "dma_bandwidth_busy_pct"};

std::string_view suggestionFor(sim::Engine r) {
    switch (r) {
    case sim::Engine::Vector:
        return "VectorE sets the pace: fuse element-wise steps (tensor_scalar with two ops, activation with scale and "
               "bias on ScalarE) and move independent element-wise work to ScalarE or GpSimdE.";
    case sim::Engine::Scalar:
        return "ScalarE sets the pace: keep ScalarE for transcendental activations and move copies and simple "
               "arithmetic to VectorE; fold scales and biases into the activation call.";
    case sim::Engine::GpSimd:
        return "GpSimdE sets the pace, and it is the slowest engine for element-wise work: move that work to VectorE "
               "or ScalarE and keep GpSimdE for iota, masks and cross-partition work.";
    default:
        return "DMA sets the pace of a kernel with enough arithmetic to keep TensorE busy: move fewer bytes (load "
               "each operand once per reuse window) in larger transfers, so TensorE becomes the bottleneck.";
    }
}

} // namespace

std::span<const std::string_view> EngineBoundRule::thresholds() const {
    return kThresholds;
}

void EngineBoundRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    if (f.totalPs() <= 0) {
        return;
    }
    std::array<double, static_cast<std::size_t>(sim::Engine::Count)> busy{};
    for (std::size_t e = 0; e < sim::kSummaryEngines; ++e) {
        busy[e] = f.pctOfRun(f.engineBusyPs(static_cast<sim::Engine>(e)));
    }
    busy[static_cast<std::size_t>(sim::Engine::Dma)] =
        dmaPoolBusyPct(in); // DMA is busy when its bandwidth is, not when some transfer is merely in flight
    std::size_t top = 0;
    for (std::size_t r = 1; r < busy.size(); ++r) {
        if (busy[r] > busy[top]) {
            top = r;
        }
    }
    const auto bottleneck = static_cast<sim::Engine>(top);
    const std::string_view name = sim::engineLabel(bottleneck);
    if (busy[top] < settings.value("min_busy_pct") || bottleneck == sim::Engine::Tensor) {
        return;
    }
    const double minIntensity = f.tensorBytes() > 0 ? in.result.summary.flops / f.tensorBytes() : 0.0;
    if (bottleneck == sim::Engine::Dma && minIntensity < ridgeFlopsPerByte(in.hardware)) {
        return; // memory-bound by nature: DMA is where such a kernel should be bound (the roofline says how well)
    }
    Finding finding = makeFinding(settings);
    finding.title = fmt::format("{}-bound: {} busy {:.0f} % of the run", name, name, busy[top]);
    for (std::size_t r = 0; r < busy.size(); ++r) {
        finding.figures.push_back(
            r == top ? figure(std::string(kFigureNames[r]), busy[r], "%", settings.value("min_busy_pct"))
                     : figure(std::string(kFigureNames[r]), busy[r], "%"));
    }
    if (bottleneck == sim::Engine::Dma) {
        finding.figures.push_back(
            figure("min_traffic_intensity", minIntensity, "FLOP/B", ridgeFlopsPerByte(in.hardware)));
    }
    std::vector<std::uint32_t> on;
    const auto& instructions = in.ir.instructions();
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].engine == bottleneck) {
            on.push_back(i);
        }
    }
    addLineEvidence(in, on, 3, finding.evidence, [&](const LineGroup& g) {
        if (bottleneck == sim::Engine::Dma) {
            return fmt::format("{}: {} transfers, {} of transfer time (summed over the queues)",
                               in.evidence.where(g.loc), g.indices.size(), sim::formatDuration(g.busyPs));
        }
        return fmt::format("{}: {} instructions, {:.1f} % of the run on {}", in.evidence.where(g.loc), g.indices.size(),
                           f.pctOfRun(g.busyPs), name);
    });
    finding.suggestion = std::string(suggestionFor(bottleneck));
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
