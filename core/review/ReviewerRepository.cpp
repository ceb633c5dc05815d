#include "review/ReviewerRepository.h"

#include "db/Database.h"
#include "review/TextCheck.h"

namespace kl::core {

namespace {
Reviewer readReviewer(const Statement& row) {
    return Reviewer{row.int64(0), row.text(1), row.text(2)};
}
} // namespace

Expected<Reviewer> ReviewerRepository::add(const std::string& name) {
    if (auto valid = checkText(name, "reviewer name", false); !valid) {
        return std::unexpected(valid.error());
    }
    auto insert = m_db.prepare("INSERT OR IGNORE INTO reviewer(name, added_at) VALUES (?1, ?2)");
    if (!insert) {
        return std::unexpected(insert.error());
    }
    if (auto done = insert->bind(1, name).bind(2, utcNow()).run(); !done) {
        return std::unexpected(done.error());
    }
    auto select = m_db.prepare("SELECT id, name, added_at FROM reviewer WHERE name = ?1");
    if (!select) {
        return std::unexpected(select.error());
    }
    select->bind(1, name);
    auto rows = collectRows(*select, readReviewer);
    if (!rows) {
        return std::unexpected(rows.error());
    }
    if (rows->empty()) {
        return makeError(ErrorCode::Internal, "reviewer vanished after insert", m_db.path());
    }
    return rows->front();
}

Expected<std::vector<Reviewer>> ReviewerRepository::list() {
    auto stmt = m_db.prepare("SELECT id, name, added_at FROM reviewer ORDER BY id");
    if (!stmt) {
        return std::unexpected(stmt.error());
    }
    return collectRows(*stmt, readReviewer);
}

} // namespace kl::core
