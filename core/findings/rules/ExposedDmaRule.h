#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `exposed-dma`: DMA time with every compute engine idle, while transfers run that were held back (they waited for
/// a dependency or for room, e.g. a single buffer still in use), when the compute elsewhere in the run could have
/// covered it: loads and compute take turns instead of overlapping. Transfers issued at once and slowed only by
/// shared bandwidth are DMA-bound (engine-bound, dma-small-transfers), and the first loads and last stores are
/// exposed whatever a kernel does: neither counts.
class ExposedDmaRule final : public Rule {
public:
    static constexpr std::string_view kId = "exposed-dma";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "DMA time not hidden by compute"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
