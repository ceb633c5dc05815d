#include "review/LinkRepository.h"

#include "db/ExpectedOps.h"
#include "db/Query.h"
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
    KL_TRY(withContext(execute(m_db,
                               "INSERT INTO link(task_id, cuda_first, cuda_last, nki_first, nki_last, origin, state, "
                               "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                               link.taskId, link.cudaFirst, link.cudaLast, link.nkiFirst, link.nkiLast,
                               toString(link.origin), toString(link.state), link.createdAt),
                       fmt::format("saving line link for task {}", link.taskId)));
    link.id = m_db.lastInsertRowId();
    return link;
}

Expected<void> LinkRepository::setState(std::int64_t id, LinkState state) {
    return then(execute(m_db, "UPDATE link SET state = ?2 WHERE id = ?1", id, toString(state)),
                [&] { return changedOne(m_db, id); });
}

Expected<void> LinkRepository::remove(std::int64_t id) {
    return then(execute(m_db, "DELETE FROM link WHERE id = ?1", id), [&] { return changedOne(m_db, id); });
}

Expected<std::vector<LineLink>> LinkRepository::list(std::int64_t taskId) {
    return selectRows(
        m_db,
        "SELECT id, task_id, cuda_first, cuda_last, nki_first, nki_last, origin, state, created_at "
        "FROM link WHERE task_id = ?1 ORDER BY cuda_first, nki_first, id",
        [](const Statement& row) {
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
        },
        taskId);
}

} // namespace kl::core
