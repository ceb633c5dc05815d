#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `redundant-loads`: Loads of an HBM region that was loaded before by the same program instance, when the data loaded
/// in between would fit in SBUF beside it: the region could have stayed resident (the load hoisted out of the loop).
class RedundantLoadsRule final : public Rule {
public:
    static constexpr std::string_view kId = "redundant-loads";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "The same HBM region loaded repeatedly"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
