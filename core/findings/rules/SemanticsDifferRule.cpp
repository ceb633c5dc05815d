#include "findings/rules/SemanticsDifferRule.h"

#include "findings/rules/RuleSupport.h"
#include "numerics/NumericsResult.h"
#include "numerics/NumericsTable.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 2> kThresholds = {"min_mismatch_pct", "evidence_instructions"};

struct Failure {
    const NumericsOutput* output = nullptr;
    ComparisonKind kind = ComparisonKind::NkiVsExact;
    const NumericsComparison* comparison = nullptr;
};

/// Comparisons involving the NKI kernel that failed with at least `minPct` % of the elements outside the tolerance
/// (a non-finite value where the expected one is finite always counts). GPU vs exact is the CUDA side's own error.
std::vector<Failure> failures(const NumericsResult& r, double minPct) {
    std::vector<Failure> out;
    for (const NumericsOutput& o : r.outputs) {
        for (ComparisonKind kind : {ComparisonKind::NkiVsExact, ComparisonKind::NkiVsGpu}) {
            const auto& c = o.comparison(kind);
            if (c && !c->passed && (c->mismatchPct >= minPct || std::isnan(c->maxAbsError))) {
                out.push_back({&o, kind, &*c});
            }
        }
    }
    return out;
}

std::string worstText(const NumericsComparison& c) {
    if (c.worst.empty()) {
        return {};
    }
    const NumericsWorstElement& w = c.worst.front();
    std::string index;
    for (std::int64_t i : w.index) {
        index += (index.empty() ? "" : ", ") + std::to_string(i);
    }
    return fmt::format("; worst element [{}]: {} where {} was expected", index, numericsNumber(w.value),
                       numericsNumber(w.expected));
}

} // namespace

std::span<const std::string_view> SemanticsDifferRule::thresholds() const {
    return kThresholds;
}

void SemanticsDifferRule::check(const FindingsInput& in, const RuleSettings& settings,
                                std::vector<Finding>& out) const {
    if (in.numerics == nullptr) {
        return;
    }
    const NumericsResult& r = *in.numerics;
    const double minPct = settings.value("min_mismatch_pct");
    const auto failed = failures(r, minPct);
    if (failed.empty()) {
        return;
    }
    // The failure that matters most: the most elements outside the tolerance, NKI vs exact before NKI vs GPU.
    const Failure* worst = &failed.front();
    for (const Failure& f : failed) {
        if (f.comparison->mismatchPct > worst->comparison->mismatchPct) {
            worst = &f;
        }
    }
    const NumericsComparison& c = *worst->comparison;
    Finding finding = makeFinding(settings);
    finding.title = fmt::format("{}: {} of {} outside tolerance", std::string(title()), comparisonLabel(worst->kind),
                                worst->output->tensor.name);
    finding.figures = {
        figure("mismatch_pct", c.mismatchPct, "%", minPct),
        figure("mismatches", static_cast<double>(c.mismatches), "elements"),
    };
    // An infinite or NaN error has no honest number: the figure is left out and the evidence says "inf" / "nan".
    for (const auto& [name, value] :
         {std::pair{"max_abs_error", c.maxAbsError}, std::pair{"max_rel_error", c.maxRelError}}) {
        if (std::isfinite(value)) {
            finding.figures.push_back(figure(name, value, ""));
        }
    }
    finding.figures.push_back(figure("rtol", c.rtol, ""));
    finding.figures.push_back(figure("atol", c.atol, ""));
    finding.figures.push_back(figure("failed_comparisons", static_cast<double>(failed.size()), "comparisons"));
    EvidenceItem summary;
    summary.note = fmt::format("{} of {} ({}, {}): max abs error {}, max rel error {}, {} elements ({}%) outside "
                               "rtol {} atol {} (standard {}){}",
                               comparisonLabel(worst->kind), worst->output->tensor.name, worst->output->tensor.dtype,
                               r.inputsKind, numericsFigure(c.maxAbsError), numericsFigure(c.maxRelError), c.mismatches,
                               numericsFigure(c.mismatchPct), numericsFigure(c.rtol), numericsFigure(c.atol),
                               r.toleranceStandard, worstText(c));
    finding.evidence.push_back(std::move(summary));
    const auto maxItems = static_cast<std::size_t>(settings.value("evidence_instructions"));
    for (const NumericsInstruction& ins : r.topErrorInstructions) {
        if (finding.evidence.size() > maxItems) {
            break;
        }
        EvidenceItem e;
        e.note = fmt::format("instruction {} ({}) at {}:{} added a rounding error of {}", ins.index, ins.op, ins.file,
                             ins.line, numericsFigure(ins.addedError));
        if (ins.line > 0) {
            e.lines.push_back({SourceSide::Nki, ins.file, ins.line, ins.line});
        }
        finding.evidence.push_back(std::move(e));
    }
    finding.suggestion = "Open the Numerics dock (or run `kernellens-cli numerics`) and look at the worst elements "
                         "and the instructions that added most error: a missing mask on a ragged tile, an accumulator "
                         "narrower than the CUDA kernel's, or a cast in the wrong place are the usual causes.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
