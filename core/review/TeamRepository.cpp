#include "review/TeamRepository.h"

#include "db/Query.h"
#include "review/ScoreRepository.h"
#include "review/TextCheck.h"
#include "rubric/Rubric.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {
namespace {

Expected<void> checkItem(const Rubric& rubric, const std::string& itemId, int value) {
    const RubricItem* item = rubric.findItem(itemId);
    if (item == nullptr) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("rubric item \"{}\" is not in the review's rubric \"{}\"", itemId, rubric.id));
    }
    if (!item->scale.accepts(value)) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("score {} is outside the scale of \"{}\" ({} to {})", value, itemId,
                                     item->scale.minValue(), item->scale.maxValue()));
    }
    return {};
}

ReviewerScore readReviewerScore(const Statement& row) {
    return ReviewerScore{row.int64(0), row.text(1), row.text(2), static_cast<int>(row.int64(3)), row.text(4)};
}

Adjudication readAdjudication(const Statement& row) {
    return Adjudication{row.int64(0), row.text(1), row.text(2), row.text(3), row.text(4)};
}

} // namespace

Expected<bool> TeamRepository::addReviewerScore(const ReviewerScore& s) {
    KL_TRY(checkItem(m_rubric, s.itemId, s.value));
    KL_TRY(checkText(s.reviewer, "reviewer", false));
    auto had =
        selectFirst(m_db, "SELECT value FROM reviewer_score WHERE task_id = ?1 AND item_id = ?2 AND reviewer = ?3",
                    intColumn, s.taskId, s.itemId, s.reviewer);
    KL_TRY(had);
    if (*had) {
        if (**had == s.value) {
            return false;
        }
        return makeError(
            ErrorCode::InvalidArgument,
            fmt::format("{} scored \"{}\" {} in one file and {} in another", s.reviewer, s.itemId, **had, s.value),
            m_db.path(), 0, "merge the reviewers' latest files only");
    }
    KL_TRY(execute(m_db,
                   "INSERT INTO reviewer_score(task_id, item_id, reviewer, value, updated_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5)",
                   s.taskId, s.itemId, s.reviewer, s.value, s.updatedAt));
    return true;
}

Expected<std::vector<ReviewerScore>> TeamRepository::reviewerScores(std::optional<std::int64_t> taskId) {
    return selectRows(m_db,
                      "SELECT task_id, item_id, reviewer, value, updated_at FROM reviewer_score "
                      "WHERE ?1 IS NULL OR task_id = ?1 ORDER BY task_id, item_id, reviewer",
                      readReviewerScore, taskId);
}

Expected<Adjudication> TeamRepository::adjudicate(std::int64_t taskId, const std::string& itemId, int value,
                                                  const std::string& reason, const std::string& adjudicator) {
    KL_TRY(checkText(reason, "reason", false));
    auto tx = m_db.beginTransaction();
    KL_TRY(tx);
    auto score = ScoreRepository(m_db, m_rubric).set(taskId, itemId, value, adjudicator);
    KL_TRY(score);
    Adjudication a{taskId, itemId, reason, adjudicator, score->updatedAt};
    KL_TRY(restoreAdjudication(a));
    KL_TRY(tx->commit());
    return a;
}

Expected<void> TeamRepository::restoreAdjudication(const Adjudication& a) {
    return execute(m_db,
                   "INSERT OR REPLACE INTO adjudication(task_id, item_id, reason, adjudicator, decided_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5)",
                   a.taskId, a.itemId, a.reason, a.adjudicator, a.decidedAt);
}

Expected<std::vector<Adjudication>> TeamRepository::adjudications(std::optional<std::int64_t> taskId) {
    return selectRows(m_db,
                      "SELECT task_id, item_id, reason, adjudicator, decided_at FROM adjudication "
                      "WHERE ?1 IS NULL OR task_id = ?1 ORDER BY task_id, item_id",
                      readAdjudication, taskId);
}

Expected<void> TeamRepository::clearAdjudication(std::int64_t taskId, const std::string& itemId) {
    return execute(m_db, "DELETE FROM adjudication WHERE task_id = ?1 AND item_id = ?2", taskId, itemId);
}

Expected<bool> TeamRepository::isTeamReview() {
    auto n = m_db.queryInt("SELECT count(*) FROM reviewer_score");
    KL_TRY(n);
    return *n > 0;
}

} // namespace kl::core
