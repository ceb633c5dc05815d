#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `transpose-on-tensor`: TensorE transposes of tiles that come straight from HBM (their only writer is a load), when
/// TensorE time matters and the DMA queues have room: a transposing DMA would deliver the layout without TensorE and
/// PSUM.
class TransposeOnTensorRule final : public Rule {
public:
    static constexpr std::string_view kId = "transpose-on-tensor";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "TensorE transposes data a DMA could transpose"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
