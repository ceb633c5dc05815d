#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `tail-not-handled`: Output tensors the kernel creates with a trailing band of one dimension (shorter than half of
/// it) that no instruction writes: a shape that is not a multiple of the tile with no remainder tile or mask. The CUDA
/// kernel's bounds checks are cited when there is a CUDA source. Arguments written in place (a KV cache update) and
/// outputs split between ranks or cores are not tails.
class TailNotHandledRule final : public Rule {
public:
    static constexpr std::string_view kId = "tail-not-handled";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Output elements never written (tail not handled)"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
