#include "review/ScoreRepository.h"

#include "db/Database.h"
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
    auto task = m_db.prepare("SELECT 1 FROM task WHERE id = ?1");
    KL_TRY(task);
    auto found = task->bind(1, taskId).step();
    KL_TRY(found);
    if (!*found) {
        return makeError(ErrorCode::NotFound, fmt::format("no task with id {} in this review", taskId), m_db.path());
    }
    Score score{taskId, itemId, value, reviewer, utcNow()};
    auto stmt =
        m_db.prepare("INSERT INTO score(task_id, item_id, value, reviewer, updated_at) VALUES (?1, ?2, ?3, ?4, ?5) "
                     "ON CONFLICT(task_id, item_id) DO UPDATE SET value = excluded.value, "
                     "reviewer = excluded.reviewer, updated_at = excluded.updated_at");
    KL_TRY(stmt);
    auto done = stmt->bind(1, taskId).bind(2, itemId).bind(3, value).bind(4, reviewer).bind(5, score.updatedAt).run();
    KL_TRY(done);
    return score;
}

Expected<void> ScoreRepository::clear(std::int64_t taskId, const std::string& itemId) {
    auto stmt = m_db.prepare("DELETE FROM score WHERE task_id = ?1 AND item_id = ?2");
    KL_TRY(stmt);
    return stmt->bind(1, taskId).bind(2, itemId).run();
}

Expected<std::vector<Score>> ScoreRepository::list(std::int64_t taskId) {
    auto stmt = m_db.prepare(
        "SELECT task_id, item_id, value, reviewer, updated_at FROM score WHERE task_id = ?1 ORDER BY item_id");
    KL_TRY(stmt);
    stmt->bind(1, taskId);
    return collectRows(*stmt, [](const Statement& row) {
        return Score{row.int64(0), row.text(1), static_cast<int>(row.int64(2)), row.text(3), row.text(4)};
    });
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
    auto stmt = m_db.prepare("INSERT OR REPLACE INTO score(task_id, item_id, value, reviewer, updated_at) "
                             "VALUES (?1, ?2, ?3, ?4, ?5)");
    KL_TRY(stmt);
    stmt->bind(1, score.taskId).bind(2, score.itemId).bind(3, score.value).bind(4, score.reviewer);
    return stmt->bind(5, score.updatedAt).run();
}

} // namespace kl::core
