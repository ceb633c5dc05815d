#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `dma-small-transfers`: DMA transfers moving fewer bytes per partition than the DMA engines need to reach their
/// bandwidth (the DMA guide: 2 KiB or more per partition), when they take a large share of the DMA time of a run that
/// DMA matters to.
class DmaSmallTransfersRule final : public Rule {
public:
    static constexpr std::string_view kId = "dma-small-transfers";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Small DMA transfers"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
