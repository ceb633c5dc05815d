#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

class Database;
struct Rubric;

/// One reviewer's own score for an item of a task, as it was in that reviewer's file before a merge.
struct ReviewerScore {
    std::int64_t taskId = 0;
    std::string itemId;
    std::string reviewer;
    int value = 0;
    std::string updatedAt;
    bool operator==(const ReviewerScore&) const = default;
};

/// Why a disputed item got its agreed grade; the grade itself is the task's score (ScoreRepository).
struct Adjudication {
    std::int64_t taskId = 0;
    std::string itemId;
    std::string reason;
    std::string adjudicator;
    std::string decidedAt;
};

/// A merged review's team data: every reviewer's own scores (kept apart from the agreed grade, so agreement can
/// be measured and nobody's score is overwritten) and the adjudications that set an agreed grade.
class TeamRepository {
public:
    TeamRepository(Database& db, const Rubric& rubric) : m_db(db), m_rubric(rubric) {}

    /// Adds a reviewer's score exactly as given (a merge); refuses a different value for the same task, item
    /// and reviewer, so nothing is overwritten; the same value again changes nothing (returns false).
    [[nodiscard]] Expected<bool> addReviewerScore(const ReviewerScore& score);
    [[nodiscard]] Expected<std::vector<ReviewerScore>> reviewerScores(std::optional<std::int64_t> taskId = {});
    /// Sets the agreed grade of an item (the task's score) with the reason, in one transaction.
    [[nodiscard]] Expected<Adjudication> adjudicate(std::int64_t taskId, const std::string& itemId, int value,
                                                    const std::string& reason, const std::string& adjudicator);
    /// Copies an adjudication exactly (a merge); the grade is copied with it by the caller.
    [[nodiscard]] Expected<void> restoreAdjudication(const Adjudication& adjudication);
    [[nodiscard]] Expected<std::vector<Adjudication>> adjudications(std::optional<std::int64_t> taskId = {});
    /// Removes the reason of an item's agreed grade (undo of an adjudication; the grade is the caller's).
    [[nodiscard]] Expected<void> clearAdjudication(std::int64_t taskId, const std::string& itemId);
    /// True when the file holds any reviewer's own scores (it is a merged, team review).
    [[nodiscard]] Expected<bool> isTeamReview();

private:
    Database& m_db;
    const Rubric& m_rubric;
};

} // namespace kl::core
