#include "review/FindingDismissalRepository.h"

#include "db/Database.h"
#include "db/ExpectedOps.h"
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
    auto stmt = m_db.prepare(
        fmt::format("INSERT INTO finding_dismissal({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", kColumns));
    KL_TRY(stmt);
    stmt->bind(1, d.id == 0 ? std::optional<std::int64_t>() : std::optional(d.id))
        .bind(2, d.taskId)
        .bind(3, d.findingKey)
        .bind(4, d.rule)
        .bind(5, d.title)
        .bind(6, d.reason)
        .bind(7, d.author)
        .bind(8, d.createdAt);
    if (auto done = stmt->run(); !done) {
        Error error = done.error();
        error.message = fmt::format("dismissing finding '{}' of task {}: {}", d.findingKey, d.taskId, error.message);
        return std::unexpected(error);
    }
    return {};
}

Expected<FindingDismissal> FindingDismissalRepository::remove(std::int64_t taskId, std::string_view findingKey) {
    auto find =
        m_db.prepare(fmt::format("SELECT {} FROM finding_dismissal WHERE task_id = ?1 AND finding_key = ?2", kColumns));
    KL_TRY(find);
    find->bind(1, taskId).bind(2, findingKey);
    auto rows = collectRows(*find, rowOf);
    KL_TRY(rows);
    if (rows->empty()) {
        return makeError(ErrorCode::NotFound,
                         fmt::format("finding '{}' of task {} is not dismissed", findingKey, taskId));
    }
    auto erase = m_db.prepare("DELETE FROM finding_dismissal WHERE id = ?1");
    KL_TRY(erase);
    KL_TRY(erase->bind(1, rows->front().id).run());
    return rows->front();
}

Expected<std::vector<FindingDismissal>> FindingDismissalRepository::list(std::int64_t taskId) {
    auto stmt = m_db.prepare(fmt::format("SELECT {} FROM finding_dismissal WHERE task_id = ?1 ORDER BY id", kColumns));
    KL_TRY(stmt);
    stmt->bind(1, taskId);
    return collectRows(*stmt, rowOf);
}

} // namespace kl::core
