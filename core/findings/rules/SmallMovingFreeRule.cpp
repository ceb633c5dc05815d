#include "findings/rules/SmallMovingFreeRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 2> kThresholds = {"min_matmul_share_pct", "min_tensor_busy_pct"};
}

std::span<const std::string_view> SmallMovingFreeRule::thresholds() const {
    return kThresholds;
}

void SmallMovingFreeRule::check(const FindingsInput& in, const RuleSettings& settings,
                                std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const double interval = in.hardware.costs.matmulMinInterval;
    const auto& instructions = in.ir.instructions();
    std::vector<std::uint32_t> small;
    std::vector<double> widths;
    sim::TimePs matmulPs = 0;
    sim::TimePs smallPs = 0;
    double wastedPs = 0;
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].op != sim::Op::NcMatmul) {
            continue;
        }
        const sim::TimePs d = f.durationPs(i);
        matmulPs += d;
        const double moving = matmulShape(in.ir, instructions[i]).moving;
        if (moving > 0 && moving < interval) {
            small.push_back(i);
            widths.push_back(moving);
            smallPs += d;
            wastedPs += static_cast<double>(d) * (1.0 - moving / interval);
        }
    }
    const double share = pct(static_cast<double>(smallPs), static_cast<double>(matmulPs));
    const double tensorBusy = f.pctOfRun(f.engineBusyPs(sim::Engine::Tensor));
    if (small.empty() || share < settings.value("min_matmul_share_pct") ||
        tensorBusy < settings.value("min_tensor_busy_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    finding.figures = {
        figure("small_matmul_share_pct", share, "%", settings.value("min_matmul_share_pct")),
        figure("median_moving_free", median(widths), "elements", interval),
        figure("wasted_tensor_pct", pct(wastedPs, static_cast<double>(matmulPs)), "%"),
        figure("tensor_busy_pct", tensorBusy, "%", settings.value("min_tensor_busy_pct")),
    };
    addLineEvidence(in, small, 3, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} matmuls with a moving free size of {:g} (each costs {:g})", in.evidence.where(g.loc),
                           g.indices.size(), matmulShape(in.ir, instructions[g.indices.front()]).moving, interval);
    });
    finding.suggestion = fmt::format(
        "Give each matmul at least {:g} (up to 512) moving columns: put the larger free dimension on the moving "
        "operand, or batch several small matmuls' moving tiles side by side in one.",
        interval);
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
