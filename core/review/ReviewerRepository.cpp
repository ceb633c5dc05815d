#include "review/ReviewerRepository.h"

#include "db/Database.h"
#include "review/TextCheck.h"
#include "support/Try.h"

namespace kl::core {

namespace {
Reviewer readReviewer(const Statement& row) {
    return Reviewer{row.int64(0), row.text(1), row.text(2)};
}
} // namespace

Expected<Reviewer> ReviewerRepository::add(const std::string& name) {
    KL_TRY(checkText(name, "reviewer name", false));
    auto insert = m_db.prepare("INSERT OR IGNORE INTO reviewer(name, added_at) VALUES (?1, ?2)");
    KL_TRY(insert);
    KL_TRY(insert->bind(1, name).bind(2, utcNow()).run());
    auto select = m_db.prepare("SELECT id, name, added_at FROM reviewer WHERE name = ?1");
    KL_TRY(select);
    select->bind(1, name);
    auto rows = collectRows(*select, readReviewer);
    KL_TRY(rows);
    if (rows->empty()) {
        return makeError(ErrorCode::Internal, "reviewer vanished after insert", m_db.path());
    }
    return rows->front();
}

Expected<std::vector<Reviewer>> ReviewerRepository::list() {
    auto stmt = m_db.prepare("SELECT id, name, added_at FROM reviewer ORDER BY id");
    KL_TRY(stmt);
    return collectRows(*stmt, readReviewer);
}

} // namespace kl::core
