#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `fp32-matmul`: Matmuls with float32 operands, which run at a quarter of TensorE's BF16 rate, when they take a
/// noticeable share of the run.
class Fp32MatmulRule final : public Rule {
public:
    static constexpr std::string_view kId = "fp32-matmul";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "FP32 operands on TensorE"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
