#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `psum-bank-pressure`: Time lost because PSUM is full (instructions waiting for a bank while nothing is being copied
/// out of PSUM) or because TensorE waits for a PSUM tile to be evacuated before it can write it again.
class PsumBankPressureRule final : public Rule {
public:
    static constexpr std::string_view kId = "psum-bank-pressure";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "PSUM banks hold TensorE back"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
