#pragma once

#include "result/SimResult.h"

#include <memory>

namespace kl::sim {

/// A hand-made run (not a simulation): `count` instructions spread over vector, scalar, the TensorE rows and two DMA
/// queues, each `durationPs` long with gaps, in program order, deterministic. Used by view tests and benchmarks.
[[nodiscard]] std::shared_ptr<SimResult> makeSyntheticRun(std::size_t count, TimePs durationPs = 1000,
                                                          TimePs gapPs = 200);

} // namespace kl::sim
