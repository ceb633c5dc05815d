#include "review/FindingDismissalRepository.h"

#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

namespace {

constexpr std::string_view kColumns = "id, task_id, finding_key, rule, title, reason, author, created_at";

FindingDismissal rowOf(const Statement& row) {
    return {row.int64(0), row.int64(1), row.text(2), row.text(3), row.text(4), row.text(5), row.text(6), row.text(7)};
}

} // namespace

Expected<FindingDismissal> FindingDismissalRepository::add(FindingDismissal dismissal) {
    auto valid = then(then(checkText(dismissal.findingKey, "finding key", false),
                           [&] { return checkText(dismissal.reason, "dismissal reason", false); }),
                      [&] {
                          return then(checkText(dismissal.title, "finding title", true),
                                      [&] { return checkText(dismissal.author, "author", true); });
                      });
    KL_TRY(valid);
    dismissal.id = 0;
    dismissal.createdAt = utcNow();
    KL_TRY(put(dismissal));
    dismissal.id = m_db.lastInsertRowId();
    return dismissal;
}

Expected<void> FindingDismissalRepository::put(const FindingDismissal& d) {
    return withContext(
        execute(m_db,
                fmt::format("INSERT INTO finding_dismissal({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", kColumns),
                d.id == 0 ? std::optional<std::int64_t>() : std::optional(d.id), d.taskId, d.findingKey, d.rule,
                d.title, d.reason, d.author, d.createdAt),
        fmt::format("dismissing finding '{}' of task {}", d.findingKey, d.taskId));
}

Expected<FindingDismissal> FindingDismissalRepository::remove(std::int64_t taskId, std::string_view findingKey) {
    auto found = selectFirst(
        m_db, fmt::format("SELECT {} FROM finding_dismissal WHERE task_id = ?1 AND finding_key = ?2", kColumns), rowOf,
        taskId, findingKey);
    KL_TRY(found);
    if (!*found) {
        return makeError(ErrorCode::NotFound,
                         fmt::format("finding '{}' of task {} is not dismissed", findingKey, taskId));
    }
    KL_TRY(execute(m_db, "DELETE FROM finding_dismissal WHERE id = ?1", (*found)->id));
    return std::move(**found);
}

Expected<std::vector<FindingDismissal>> FindingDismissalRepository::list(std::int64_t taskId) {
    return selectRows(m_db, fmt::format("SELECT {} FROM finding_dismissal WHERE task_id = ?1 ORDER BY id", kColumns),
                      rowOf, taskId);
}

} // namespace kl::core
