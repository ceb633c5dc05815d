#pragma once

#include "findings/Rule.h"

namespace kl::core::findings {

/// `cuda-lines-unmapped`: Runs of CUDA kernel lines that compute on data (CudaScan::dataLines: floating-point values,
/// not index arithmetic, barriers or bare declarations) that no CUDA<->NKI link covers: computation a reader cannot
/// find in the NKI kernel, or that was dropped.
class CudaLinesUnmappedRule final : public Rule {
public:
    static constexpr std::string_view kId = "cuda-lines-unmapped";
    [[nodiscard]] std::string_view id() const override { return kId; }
    [[nodiscard]] std::string_view title() const override { return "CUDA code without an NKI counterpart"; }
    [[nodiscard]] std::span<const std::string_view> thresholds() const override;
    void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const override;
};

} // namespace kl::core::findings
