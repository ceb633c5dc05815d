#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `semantics-differ`: a numerics run of the task (value execution, docs/numerics-json.md) has a comparison outside
/// its tolerance: the NKI kernel's values differ from the exact float64 reference, or from the emulated CUDA
/// kernel, by more than the tolerance standard allows. One finding per run, with the worst failing comparison's
/// figures (max abs/rel error, mismatch share, rtol/atol) and, as evidence, the NKI lines of the instructions
/// that added most rounding error. Silent when no numerics run was given (FindingsInput::numerics).
class SemanticsDifferRule final : public Rule {
public:
    static constexpr std::string_view kId = "semantics-differ";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Values differ beyond tolerance"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
