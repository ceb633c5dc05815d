#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `tensor-idle-waiting`: Matmuls that waited for an operand load which itself waited for the previous reader of its
/// destination tile: the operand tile is single-buffered, so the next load cannot start while TensorE works on the
/// current one.
class TensorIdleWaitingRule final : public Rule {
public:
    static constexpr std::string_view kId = "tensor-idle-waiting";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override {
        return "TensorE waits for its operands (no double buffering)";
    }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
