#include "batch/ReviewFromResults.h"

#include "batch/BatchResults.h"
#include "batch/Triage.h"
#include "review/ReviewFile.h"
#include "support/Try.h"

#include <filesystem>

namespace kl::core::batch {

Expected<ReviewFromResultsSummary> createReviewFromResults(const std::string& resultsPath,
                                                           const std::string& reviewPath,
                                                           const ReviewFromResultsOptions& o) {
    std::error_code ec;
    if (!std::filesystem::exists(resultsPath, ec)) {
        return makeError(ErrorCode::NotFound, "no such batch results file", resultsPath);
    }
    auto results = BatchResults::open(resultsPath);
    KL_TRY(results);
    auto rows = results->all();
    auto root = results->root();
    KL_TRY(rows);
    KL_TRY(root);
    const std::vector<TriagedTask> queue = triage(*rows, *root, o.statusFilter);
    if (queue.empty()) {
        return makeError(ErrorCode::InvalidArgument, "no task of the batch matches the filter", resultsPath, 0,
                         "choose 'all' tasks, or run the batch first");
    }
    auto review = ReviewFile::create(reviewPath, {o.rubricJson, o.rubricSource, o.reviewer});
    KL_TRY(review);
    ReviewFromResultsSummary summary;
    for (const TriagedTask& t : queue) {
        if (!std::filesystem::is_directory(t.folder, ec)) {
            summary.missing.push_back(t.folder.string());
            continue;
        }
        KL_TRY(review->tasks().addFromFolder(t.folder.string()));
        ++summary.tasks;
    }
    return summary;
}

} // namespace kl::core::batch
