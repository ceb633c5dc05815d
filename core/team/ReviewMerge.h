#pragma once

#include "common/Error.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kl::core::team {

/// What a merge brought together, for the CLI and the GUI to report.
struct MergeSummary {
    std::vector<std::string> reviewers; ///< everyone who scored or annotated, sorted
    std::size_t tasks = 0;
    std::size_t reviewerScores = 0;
    std::size_t annotations = 0;
    std::size_t replies = 0;
    std::size_t duplicatesSkipped = 0; ///< annotations, replies and scores already in the merged file
};

/// Merges several reviews of the same task set into a new review at `output` (which must not exist): each
/// reviewer's scores (kept per reviewer, apart from the agreed grade), annotations, replies and task progress,
/// every item with its author. Tasks are matched by folder name and content hash of their files; a task whose
/// files differ between inputs, a different rubric, or one reviewer's two different scores for the same item
/// stop the merge with every conflict listed, and nothing is written. Merging a file twice, or a merged file
/// with one of its inputs, adds nothing. Inputs are only read (each is snapshotted with a read-only
/// connection), so they are never modified or migrated.
[[nodiscard]] Expected<MergeSummary> mergeReviews(const std::vector<std::string>& inputs, const std::string& output);

} // namespace kl::core::team
