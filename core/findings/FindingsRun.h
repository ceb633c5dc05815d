#pragma once

#include "common/Error.h"
#include "findings/Finding.h"
#include "findings/FindingsEngine.h"
#include "run/RunPipeline.h"
#include "task/TaskSpec.h"

#include <vector>

namespace kl::core::findings {

/// The findings of a run of core::traceAndSimulate (the GUI's worker and the CLI both have one): loads the profile
/// the run used and, when `task` is given, its CUDA side, then runs the engine. Blocking; call it off the GUI
/// thread. `numerics`, when given, is the task's latest numerics run (the semantics-differ rule reads it).
[[nodiscard]] Expected<std::vector<Finding>> findingsForRun(const FindingsEngine& engine, const RunOutcome& run,
                                                            const TaskSpec* task = nullptr,
                                                            const NumericsResult* numerics = nullptr);

/// The profile a run used (its HardwareChoice spec), resolved under core::dataRoot() as the run resolved it.
[[nodiscard]] Expected<sim::HardwareProfile> profileOfRun(const RunOutcome& run);

} // namespace kl::core::findings
