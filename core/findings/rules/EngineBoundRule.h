#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `engine-bound`: The busiest resource (a compute engine or the DMA queues) when it is busy most of the run and is not
/// TensorE (a TensorE-bound kernel is where matmul kernels should be; the roofline finding covers it), with how busy
/// the others are. DMA counts only for kernels whose arithmetic intensity at the least traffic could make them
/// compute-bound.
class EngineBoundRule final : public Rule {
public:
    static constexpr std::string_view kId = "engine-bound";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "One engine sets the pace"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
