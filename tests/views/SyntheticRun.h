#pragma once

#include "result/SimResult.h"

#include <memory>

namespace kl::testing {

/// A hand-made run: `count` instructions spread over vector, scalar, the TensorE rows and two DMA queues,
/// each `durationPs` long with gaps, in program order, deterministic. Used by view tests and benchmarks.
[[nodiscard]] std::shared_ptr<sim::SimResult> makeSyntheticRun(std::size_t count, sim::TimePs durationPs = 1000,
                                                               sim::TimePs gapPs = 200);

} // namespace kl::testing
