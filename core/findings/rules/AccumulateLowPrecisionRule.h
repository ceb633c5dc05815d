#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `accumulate-low-precision`: In-place additions into a bfloat16/float16/fp8 tile repeated over a loop (at least
/// min_steps times) (a running sum rounded at every step), where the CUDA kernel accumulates in float. Without a CUDA
/// source the finding is one step milder.
class AccumulateLowPrecisionRule final : public Rule {
public:
    static constexpr std::string_view kId = "accumulate-low-precision";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Accumulation in a low-precision dtype"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
