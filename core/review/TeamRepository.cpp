#include "review/TeamRepository.h"

#include "db/Database.h"
#include "db/Statement.h"
#include "db/Transaction.h"
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

} // namespace

Expected<bool> TeamRepository::addReviewerScore(const ReviewerScore& s) {
    KL_TRY(checkItem(m_rubric, s.itemId, s.value));
    KL_TRY(checkText(s.reviewer, "reviewer", false));
    auto existing =
        m_db.prepare("SELECT value FROM reviewer_score WHERE task_id = ?1 AND item_id = ?2 AND reviewer = ?3");
    KL_TRY(existing);
    auto row = existing->bind(1, s.taskId).bind(2, s.itemId).bind(3, s.reviewer).step();
    KL_TRY(row);
    if (*row) {
        const auto had = existing->int64(0);
        if (had == s.value) {
            return false;
        }
        return makeError(
            ErrorCode::InvalidArgument,
            fmt::format("{} scored \"{}\" {} in one file and {} in another", s.reviewer, s.itemId, had, s.value),
            m_db.path(), 0, "merge the reviewers' latest files only");
    }
    auto stmt = m_db.prepare(
        "INSERT INTO reviewer_score(task_id, item_id, reviewer, value, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)");
    KL_TRY(stmt);
    if (auto done =
            stmt->bind(1, s.taskId).bind(2, s.itemId).bind(3, s.reviewer).bind(4, s.value).bind(5, s.updatedAt).run();
        !done) {
        return std::unexpected(done.error());
    }
    return true;
}

Expected<std::vector<ReviewerScore>> TeamRepository::reviewerScores(std::optional<std::int64_t> taskId) {
    auto stmt = m_db.prepare("SELECT task_id, item_id, reviewer, value, updated_at FROM reviewer_score "
                             "WHERE ?1 IS NULL OR task_id = ?1 ORDER BY task_id, item_id, reviewer");
    KL_TRY(stmt);
    stmt->bind(1, taskId);
    return collectRows(*stmt, [](const Statement& row) {
        return ReviewerScore{row.int64(0), row.text(1), row.text(2), static_cast<int>(row.int64(3)), row.text(4)};
    });
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
    auto stmt = m_db.prepare("INSERT OR REPLACE INTO adjudication(task_id, item_id, reason, adjudicator, decided_at) "
                             "VALUES (?1, ?2, ?3, ?4, ?5)");
    KL_TRY(stmt);
    return stmt->bind(1, a.taskId)
        .bind(2, a.itemId)
        .bind(3, a.reason)
        .bind(4, a.adjudicator)
        .bind(5, a.decidedAt)
        .run();
}

Expected<std::vector<Adjudication>> TeamRepository::adjudications(std::optional<std::int64_t> taskId) {
    auto stmt = m_db.prepare("SELECT task_id, item_id, reason, adjudicator, decided_at FROM adjudication "
                             "WHERE ?1 IS NULL OR task_id = ?1 ORDER BY task_id, item_id");
    KL_TRY(stmt);
    stmt->bind(1, taskId);
    return collectRows(*stmt, [](const Statement& row) {
        return Adjudication{row.int64(0), row.text(1), row.text(2), row.text(3), row.text(4)};
    });
}

Expected<void> TeamRepository::clearAdjudication(std::int64_t taskId, const std::string& itemId) {
    auto stmt = m_db.prepare("DELETE FROM adjudication WHERE task_id = ?1 AND item_id = ?2");
    KL_TRY(stmt);
    return stmt->bind(1, taskId).bind(2, itemId).run();
}

Expected<bool> TeamRepository::isTeamReview() {
    auto n = m_db.queryInt("SELECT count(*) FROM reviewer_score");
    KL_TRY(n);
    return *n > 0;
}

} // namespace kl::core
