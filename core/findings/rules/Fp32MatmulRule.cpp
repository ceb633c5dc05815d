#include "findings/rules/Fp32MatmulRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 2> kThresholds = {"min_run_pct", "major_run_pct"};
}

std::span<const std::string_view> Fp32MatmulRule::thresholds() const {
    return kThresholds;
}

void Fp32MatmulRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    std::vector<std::uint32_t> fp32;
    sim::TimePs fp32Ps = 0;
    sim::TimePs matmulPs = 0;
    const auto& instructions = in.ir.instructions();
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].op != sim::Op::NcMatmul) {
            continue;
        }
        matmulPs += f.durationPs(i);
        if (matmulShape(in.ir, instructions[i]).dtypeIn == sim::DType::Float32) {
            fp32.push_back(i);
            fp32Ps += f.durationPs(i);
        }
    }
    const double runPct = f.pctOfRun(fp32Ps);
    if (fp32.empty() || runPct < settings.value("min_run_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    if (runPct >= settings.value("major_run_pct")) {
        finding.severity = Severity::Major;
    }
    finding.figures = {
        figure("fp32_matmul_run_pct", runPct, "%", settings.value("min_run_pct")),
        figure("fp32_matmul_share_pct", pct(static_cast<double>(fp32Ps), static_cast<double>(matmulPs)), "%"),
        figure("fp32_matmuls", static_cast<double>(fp32.size()), "instructions"),
        figure("fp32_slowdown", in.hardware.costs.fp32MatmulFactor, "x"),
    };
    addLineEvidence(in, fp32, 3, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} float32 matmuls, {:.1f} % of the run", in.evidence.where(g.loc), g.indices.size(),
                           f.pctOfRun(g.busyPs));
    });
    finding.suggestion = fmt::format(
        "Feed TensorE bfloat16 (or fp8) operands: FP32 matmuls run {:g}x slower, and PSUM still accumulates in FP32. "
        "Cast once when the operand is loaded or produced, if the task's tolerance allows.",
        in.hardware.costs.fp32MatmulFactor);
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
