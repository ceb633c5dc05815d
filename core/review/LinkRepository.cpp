#include "review/LinkRepository.h"

#include "db/Database.h"
#include "db/ExpectedOps.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

namespace {
Expected<void> changedOne(Database& db, std::int64_t id) {
    return db.expectChange(fmt::format("no line link with id {}", id));
}
} // namespace

Expected<LineLink> LinkRepository::add(LineLink link) {
    if (link.cudaFirst < 1 || link.cudaLast < link.cudaFirst || link.nkiFirst < 1 || link.nkiLast < link.nkiFirst) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("line link CUDA {}-{} <-> NKI {}-{}: ranges must have 1 <= first <= last",
                                     link.cudaFirst, link.cudaLast, link.nkiFirst, link.nkiLast));
    }
    link.createdAt = utcNow();
    auto stmt = m_db.prepare("INSERT INTO link(task_id, cuda_first, cuda_last, nki_first, nki_last, origin, state, "
                             "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    KL_TRY(stmt);
    stmt->bind(1, link.taskId).bind(2, link.cudaFirst).bind(3, link.cudaLast).bind(4, link.nkiFirst);
    stmt->bind(5, link.nkiLast).bind(6, toString(link.origin)).bind(7, toString(link.state)).bind(8, link.createdAt);
    if (auto done = stmt->run(); !done) {
        Error error = done.error();
        error.message = fmt::format("saving line link for task {}: {}", link.taskId, error.message);
        return std::unexpected(error);
    }
    link.id = m_db.lastInsertRowId();
    return link;
}

Expected<void> LinkRepository::setState(std::int64_t id, LinkState state) {
    auto stmt = m_db.prepare("UPDATE link SET state = ?2 WHERE id = ?1");
    KL_TRY(stmt);
    return then(stmt->bind(1, id).bind(2, toString(state)).run(), [&] { return changedOne(m_db, id); });
}

Expected<void> LinkRepository::remove(std::int64_t id) {
    auto stmt = m_db.prepare("DELETE FROM link WHERE id = ?1");
    KL_TRY(stmt);
    return then(stmt->bind(1, id).run(), [&] { return changedOne(m_db, id); });
}

Expected<std::vector<LineLink>> LinkRepository::list(std::int64_t taskId) {
    auto stmt =
        m_db.prepare("SELECT id, task_id, cuda_first, cuda_last, nki_first, nki_last, origin, state, created_at "
                     "FROM link WHERE task_id = ?1 ORDER BY cuda_first, nki_first, id");
    KL_TRY(stmt);
    stmt->bind(1, taskId);
    return collectRows(*stmt, [](const Statement& row) {
        LineLink l;
        l.id = row.int64(0);
        l.taskId = row.int64(1);
        l.cudaFirst = static_cast<int>(row.int64(2));
        l.cudaLast = static_cast<int>(row.int64(3));
        l.nkiFirst = static_cast<int>(row.int64(4));
        l.nkiLast = static_cast<int>(row.int64(5));
        l.origin = parseLinkOrigin(row.text(6)).value_or(LinkOrigin::Reviewer);
        l.state = parseLinkState(row.text(7)).value_or(LinkState::Proposed);
        l.createdAt = row.text(8);
        return l;
    });
}

} // namespace kl::core
