#pragma once

#include "result/SimResult.h"

#include <utility>
#include <vector>

namespace kl::core {

using Intervals = std::vector<std::pair<sim::TimePs, sim::TimePs>>; ///< sorted, disjoint [start, end)

/// When any compute engine (either TensorE row, VectorE, ScalarE, GpSimdE) was busy.
[[nodiscard]] Intervals computeBusy(const sim::SimResult& result);
/// When any DMA queue was busy.
[[nodiscard]] Intervals dmaBusy(const sim::SimResult& result);
/// Parts of `a` not covered by `b`: exposed DMA is dmaBusy minus computeBusy.
[[nodiscard]] Intervals subtract(const Intervals& a, const Intervals& b);
[[nodiscard]] sim::TimePs totalLength(const Intervals& intervals);

} // namespace kl::core
