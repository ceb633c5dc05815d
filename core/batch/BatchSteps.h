#pragma once

#include "batch/BatchResults.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kl::core::batch {

struct StepOptions {
    std::vector<std::string> steps{"trace", "simulate", "findings"}; ///< a subset of kSteps
    std::string hardware; ///< profile name or file; empty: the task's or the API's default
    int traceTimeoutSeconds = 300;
    bool allowUnsandboxed = false;
};

/// Runs the steps on one task folder in this process and returns one result per requested step (task and
/// content hash left for the caller). A step that fails is a result, never an error: the steps after it that
/// depend on it are `skipped` with the reason. `numerics` is recorded as skipped: value execution is not part
/// of this build (docs/batch.md).
[[nodiscard]] std::vector<StepResult> runTaskSteps(const std::filesystem::path& folder, const StepOptions& options);

/// Which requested steps are known, in run order; an unknown step name is an error naming it.
[[nodiscard]] Expected<std::vector<std::string>> parseSteps(const std::string& commaList);

} // namespace kl::core::batch
