#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `sbuf-spill`: the live tiles did not fit SBUF (or PSUM), so tiles were written out to HBM and read back
/// (the simulator models the compiler's spills): DMA traffic and waits the kernel did not ask for.
class SbufSpillRule final : public Rule {
public:
    static constexpr std::string_view kId = "sbuf-spill";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "Tiles spill out of on-chip memory"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
