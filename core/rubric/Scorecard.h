#pragma once

#include "review/ReviewTypes.h"
#include "rubric/Rubric.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

// The scorecard of one task: the rubric applied to its scores and annotations.
//
// The rule (also in docs/review-file.md):
//  - Each level item's value is mapped to the 1-5 range (1 + 4 (v-1)/(N-1) for an N-level scale),
//    so areas with different scales can be averaged.
//  - Area score = weighted mean (item weights) of its scored level items; pass/fail items do not
//    enter the mean, they gate the result.
//  - Overall score = weighted mean (area weights) of the areas that have a score.
//  - Result: Fail if any pass/fail item is scored fail, or any blocking annotation is unresolved,
//    or every item is scored and the overall score is below the rubric's pass_threshold.
//    Otherwise Incomplete while any item is unscored, else Pass.
// Scores given inside annotations are evidence shown beside the item; only the task's item scores count.
namespace kl::core {

enum class ScorecardResult { Pass, Fail, Incomplete };

struct ItemScore {
    std::string itemId;
    std::string title;
    ScaleKind kind = ScaleKind::Levels;
    std::optional<int> value;         ///< as stored; nullopt when unscored
    std::optional<double> normalized; ///< level items: value on the 1-5 range
    std::string meaning;              ///< the scale's words for the value
    int annotationCount = 0;          ///< annotations citing this item
};

struct AreaScore {
    std::string areaId;
    std::string title;
    std::optional<double> score; ///< weighted mean on 1-5, nullopt when no level item is scored
    std::vector<ItemScore> items;
};

struct Scorecard {
    std::vector<AreaScore> areas;
    std::optional<double> overall;
    ScorecardResult result = ScorecardResult::Incomplete;
    std::vector<std::string> reasons;  ///< why Fail or Incomplete, one line each
    std::vector<std::string> unscored; ///< item ids without a score
    int unresolvedBlocking = 0;
};

[[nodiscard]] Scorecard computeScorecard(const Rubric& rubric, std::span<const Score> scores,
                                         std::span<const Annotation> annotations);
[[nodiscard]] const char* toString(ScorecardResult result);

} // namespace kl::core
