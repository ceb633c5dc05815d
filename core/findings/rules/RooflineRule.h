#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `roofline`: Where the run sits on the roofline: FLOP/s from matmuls (2*K*M*N each) against TensorE's BF16 peak, HBM
/// bytes/s against the bandwidth one core's DMA can draw, the arithmetic intensity, which bound applies, and how much
/// of that bound the run reaches. Always reported (nit); milder than the bound by more than the threshold: the rule's
/// severity.
class RooflineRule final : public Rule {
public:
    static constexpr std::string_view kId = "roofline";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Roofline: achieved vs peak"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
