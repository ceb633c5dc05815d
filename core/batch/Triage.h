#pragma once

#include "batch/BatchResults.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kl::core::batch {

/// A task of a batch placed in the expert's queue: the tasks that need a human most come first.
struct TriagedTask {
    std::string key;
    std::filesystem::path folder; ///< the batch root joined with the key
    double score = 0;             ///< higher first
    bool failed = false;          ///< a step did not end ok (numerics' "not available" aside)
    std::string why;              ///< the score in words: "trace failed", "2 major findings, 41 % of the roof"
};

/// The triage order (docs/batch.md): a failed numerics comparison first, then a task whose kernel did not trace
/// or simulate, then by the number and severity of findings, then by the distance from the roofline; ties by
/// key. `statusFilter`: "all", "failed" (a step failed) or "ok".
[[nodiscard]] std::vector<TriagedTask> triage(const std::vector<StepResult>& rows, const std::filesystem::path& root,
                                              const std::string& statusFilter = "all");

} // namespace kl::core::batch
