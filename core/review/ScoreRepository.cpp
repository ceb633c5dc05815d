#include "review/ScoreRepository.h"

#include "db/Query.h"
#include "review/TextCheck.h"
#include "rubric/Rubric.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

Expected<Score> ScoreRepository::set(std::int64_t taskId, const std::string& itemId, int value,
                                     const std::string& reviewer) {
    const RubricItem* item = m_rubric.findItem(itemId);
    if (item == nullptr) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("rubric item \"{}\" is not in the review's rubric \"{}\"", itemId, m_rubric.id));
    }
    if (!item->scale.accepts(value)) {
        const bool passFail = item->scale.kind == ScaleKind::PassFail;
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("score {} is outside the scale of \"{}\" ({} to {}{})", value, itemId,
                                     item->scale.minValue(), item->scale.maxValue(),
                                     passFail ? ": 1 = pass, 0 = fail" : ""));
    }
    KL_TRY(checkText(reviewer, "reviewer", false));
    auto found = exists(m_db, "SELECT 1 FROM task WHERE id = ?1", taskId);
    KL_TRY(found);
    if (!*found) {
        return makeError(ErrorCode::NotFound, fmt::format("no task with id {} in this review", taskId), m_db.path());
    }
    Score score{taskId, itemId, value, reviewer, utcNow()};
    KL_TRY(execute(m_db,
                   "INSERT INTO score(task_id, item_id, value, reviewer, updated_at) VALUES (?1, ?2, ?3, ?4, ?5) "
                   "ON CONFLICT(task_id, item_id) DO UPDATE SET value = excluded.value, "
                   "reviewer = excluded.reviewer, updated_at = excluded.updated_at",
                   taskId, itemId, value, reviewer, score.updatedAt));
    return score;
}

Expected<void> ScoreRepository::clear(std::int64_t taskId, const std::string& itemId) {
    return execute(m_db, "DELETE FROM score WHERE task_id = ?1 AND item_id = ?2", taskId, itemId);
}

Expected<std::vector<Score>> ScoreRepository::list(std::int64_t taskId) {
    return selectRows(
        m_db, "SELECT task_id, item_id, value, reviewer, updated_at FROM score WHERE task_id = ?1 ORDER BY item_id",
        [](const Statement& row) {
            return Score{row.int64(0), row.text(1), static_cast<int>(row.int64(2)), row.text(3), row.text(4)};
        },
        taskId);
}

Expected<std::optional<Score>> ScoreRepository::find(std::int64_t taskId, const std::string& itemId) {
    auto all = list(taskId);
    KL_TRY(all);
    for (Score& score : *all) {
        if (score.itemId == itemId) {
            return std::optional<Score>(std::move(score));
        }
    }
    return std::optional<Score>();
}

Expected<void> ScoreRepository::restore(const Score& score) {
    return execute(m_db,
                   "INSERT OR REPLACE INTO score(task_id, item_id, value, reviewer, updated_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5)",
                   score.taskId, score.itemId, score.value, score.reviewer, score.updatedAt);
}

} // namespace kl::core
