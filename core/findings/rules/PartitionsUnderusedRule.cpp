#include "findings/rules/PartitionsUnderusedRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 3> kThresholds = {"max_partitions", "min_compute_share_pct", "min_run_pct"};

/// Partitions an instruction keeps busy: the contraction rows and output columns of a matmul (the smaller), the
/// input partitions of a transpose, the destination partitions of everything else.
double partitionsUsed(const sim::KernelIr& ir, const sim::Instruction& in) {
    if (in.op == sim::Op::NcMatmul) {
        const MatmulShape m = matmulShape(ir, in);
        return std::min(m.contraction, m.stationary);
    }
    if (in.op == sim::Op::NcTranspose && !ir.srcs(in).empty()) {
        return ir.srcs(in).front().partCount;
    }
    return ir.dsts(in).empty() ? 128.0 : static_cast<double>(ir.dsts(in).front().partCount);
}

} // namespace

std::span<const std::string_view> PartitionsUnderusedRule::thresholds() const {
    return kThresholds;
}

void PartitionsUnderusedRule::check(const FindingsInput& in, const RuleSettings& settings,
                                    std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const double maxPartitions = settings.value("max_partitions");
    sim::TimePs computePs = 0;
    sim::TimePs fewPs = 0;
    std::vector<std::uint32_t> few;
    std::vector<double> used;
    const auto& instructions = in.ir.instructions();
    for (std::uint32_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].engine == sim::Engine::Dma) {
            continue;
        }
        const sim::TimePs d = f.durationPs(i);
        computePs += d;
        const double p = partitionsUsed(in.ir, instructions[i]);
        if (p <= maxPartitions) {
            fewPs += d;
            few.push_back(i);
            used.push_back(p);
        }
    }
    const double share = pct(static_cast<double>(fewPs), static_cast<double>(computePs));
    const double runPct = f.pctOfRun(fewPs);
    if (few.empty() || share < settings.value("min_compute_share_pct") || runPct < settings.value("min_run_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    const double typical = median(used);
    finding.figures = {
        figure("few_partition_compute_pct", share, "%", settings.value("min_compute_share_pct")),
        figure("median_partitions", typical, "partitions", maxPartitions),
        figure("few_partition_run_pct", runPct, "%", settings.value("min_run_pct")),
        figure("instructions", static_cast<double>(few.size()), "instructions"),
    };
    addLineEvidence(in, few, 3, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: {} instructions on {:g} partitions", in.evidence.where(g.loc), g.indices.size(),
                           partitionsUsed(in.ir, instructions[g.indices.front()]));
    });
    finding.suggestion =
        "Put a dimension of 128 (or a multiple) on the partition axis: an engine takes as long for a few partitions as "
        "for 128. Fold a batch or head dimension into the partitions, or process several small tiles in one "
        "instruction.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
