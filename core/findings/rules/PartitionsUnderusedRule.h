#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `partitions-underused`: Compute instructions on tiles of few partitions (or matmuls contracting over few rows): an
/// engine processes all 128 partitions in the same time, so the rest of its lanes idle.
class PartitionsUnderusedRule final : public Rule {
public:
    static constexpr std::string_view kId = "partitions-underused";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Tiles far below 128 partitions"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
