#pragma once

#include "common/Error.h"

#include <string>
#include <vector>

namespace kl::core::batch {

struct ReviewFromResultsOptions {
    std::string rubricJson;
    std::string rubricSource;
    std::string reviewer;
    std::string statusFilter = "all"; ///< all, failed, ok
};

struct ReviewFromResultsSummary {
    std::size_t tasks = 0;
    std::vector<std::string> missing; ///< task folders the results name that are gone (left out)
};

/// A new review of a batch's tasks in triage order (batch/Triage.h): the tasks that need a human most are first
/// in the queue. Refuses an existing review file; a task folder that no longer exists is left out and listed.
[[nodiscard]] Expected<ReviewFromResultsSummary> createReviewFromResults(const std::string& resultsPath,
                                                                         const std::string& reviewPath,
                                                                         const ReviewFromResultsOptions& options);

} // namespace kl::core::batch
