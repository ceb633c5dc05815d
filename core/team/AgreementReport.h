#pragma once

#include "common/Error.h"
#include "team/AgreementStats.h"
#include "team/AnnotationOverlap.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kl::core {
class ReviewFile;
}

namespace kl::core::team {

/// Agreement on one rubric item (or on all of them: `overall`) across the reviewers of a merged review.
struct ItemAgreement {
    std::string item;
    Level level = Level::Nominal;
    Figure alpha;
    Figure kappa;
    std::string kappaMethod; ///< "cohen" (two reviewers), "fleiss" (more), "" (fewer than two)
    Figure percentAgreement;
    std::size_t tasks = 0;     ///< tasks at least one reviewer scored on this item
    std::size_t reviewers = 0; ///< reviewers who scored this item at least once
};

/// A task and item where the reviewers' scores differ, for adjudication.
struct Disagreement {
    std::int64_t taskId = 0;
    std::string taskTitle;
    std::string item;
    std::vector<std::pair<std::string, int>> scores; ///< reviewer, score
    double spread = 0.0;                             ///< (max - min) / scale range, 0..1
    std::optional<int> agreed;                       ///< the adjudicated grade, when set
};

struct AgreementReport {
    std::vector<std::string> reviewers;
    std::vector<ItemAgreement> items;
    ItemAgreement overall;
    std::vector<ReviewerOverlap> annotationOverlap;
    std::vector<Disagreement> disagreements; ///< largest spread first
};

/// The agreement figures of a review: per item at the level of measurement its scale has (pass/fail:
/// nominal, levels: ordinal), overall over every item with scores scaled to 0..1 (interval), annotation
/// overlap per reviewer, and the disagreements largest first.
[[nodiscard]] Expected<AgreementReport> computeAgreement(ReviewFile& file);

/// The JSON of `kernellens-cli review agreement --json` (docs/review-file.md, "Agreement").
[[nodiscard]] nlohmann::json agreementJson(const AgreementReport& report);

[[nodiscard]] const char* levelName(Level level);

} // namespace kl::core::team
