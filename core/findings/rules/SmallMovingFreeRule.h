#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `small-moving-free`: Matmuls whose moving free size is below the back-to-back matmul interval (the profile's
/// matmul_min_interval, 64 columns): each costs as much as one of that size.
class SmallMovingFreeRule final : public Rule {
public:
    static constexpr std::string_view kId = "small-moving-free";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Matmuls below the minimum interval"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
