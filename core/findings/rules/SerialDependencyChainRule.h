#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `serial-dependency-chain`: Runs of instructions on one engine where each waits for the one before it (paying the
/// dependent hand-off each time) while the other engines could have taken independent work.
class SerialDependencyChainRule final : public Rule {
public:
    static constexpr std::string_view kId = "serial-dependency-chain";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Long dependent chains on one engine"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
