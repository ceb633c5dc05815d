#pragma once

#include "review/ReviewTypes.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kl::core::team {

/// How far one reviewer flagged the places the others flagged.
struct ReviewerOverlap {
    std::string reviewer;
    std::size_t annotations = 0;       ///< this reviewer's own
    std::size_t confirmed = 0;         ///< of those, matched by some other reviewer's annotation
    std::size_t othersAnnotations = 0; ///< everyone else's
    std::size_t found = 0;             ///< of those, matched by one of this reviewer's
    /// confirmed / annotations and found / othersAnnotations; negative when there is nothing to divide.
    [[nodiscard]] double precision() const;
    [[nodiscard]] double recall() const;
};

/// How much two annotation anchors cover the same place, 0 (none or incomparable) to 1 (the same place).
/// Time ranges and line ranges of the same source compare by intersection over union; instructions by id.
[[nodiscard]] double anchorOverlap(const Anchor& a, const Anchor& b);

/// Per reviewer, precision and recall of their annotations against everyone else's: for each pair of
/// reviewers and each task, annotations are matched one to one, best overlap first (any overlap counts).
/// `annotations` may hold any number of tasks and reviewers; the result is sorted by reviewer.
[[nodiscard]] std::vector<ReviewerOverlap> annotationOverlap(const std::vector<Annotation>& annotations);

} // namespace kl::core::team
