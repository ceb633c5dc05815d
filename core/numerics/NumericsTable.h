#pragma once

#include "numerics/NumericsResult.h"

#include <string>

namespace kl::core {

/// The plain-text table `kernellens-cli numerics` prints: one row per comparison made, then the instructions
/// that added most rounding error with their file:line, then the verdict. Deterministic (no times besides the
/// document's own value_ms, which the caller may leave out with `withTiming = false`). Sample:
///
///     output  comparison    max abs   max rel   max ULP  RMS       mismatches     result  tolerance
///     result  NKI vs exact  0.0039    0.0078    1        0.00071   0 (0%)         pass    rtol 0.016 atol 1e-05
///
///     Top-error instructions (rounding error each added):
///       #17  nc_matmul       kernel.py:42   0.0039   -> result
[[nodiscard]] std::string renderNumericsTable(const NumericsResult& result, bool withTiming = true);

/// "3.9e-03" style figure for tables: 3 significant digits, "nan"/"inf" as such.
[[nodiscard]] std::string numericsFigure(double value);

} // namespace kl::core
