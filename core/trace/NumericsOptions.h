#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kl::core {

/// The value-mode flags of the front end (the numerics contract, docs/numerics-json.md): with `enabled` the
/// front end traces the kernel, executes it on real values and writes one numerics JSON document instead of
/// the IR. Every field left empty keeps the task.json value of the same meaning.
struct NumericsOptions {
    bool enabled = false;
    std::string reference;    ///< FILE.py:FUNC
    std::string cudaNumerics; ///< fp32-k-order | tensor-core-bf16:K | split-k:S | fp16-accumulate | none
    std::string inputs;       ///< normal | uniform | bf16-stress | fp8-stress | outliers | FILE.npy | FILE.npz
    std::optional<long long> seed;
    std::string tolerance; ///< a standard in resources/numerics/tolerances.json
    std::optional<double> rtol;
    std::optional<double> atol;

    /// The front-end flags for these options ("--numerics", "--seed", "3", ...); nothing when not enabled.
    [[nodiscard]] std::vector<std::string> frontendFlags() const;
    bool operator==(const NumericsOptions&) const = default;
};

} // namespace kl::core
