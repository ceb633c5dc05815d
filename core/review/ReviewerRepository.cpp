#include "review/ReviewerRepository.h"

#include "db/Query.h"
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
    KL_TRY(execute(m_db, "INSERT OR IGNORE INTO reviewer(name, added_at) VALUES (?1, ?2)", name, utcNow()));
    auto reviewer = selectFirst(m_db, "SELECT id, name, added_at FROM reviewer WHERE name = ?1", readReviewer, name);
    KL_TRY(reviewer);
    if (!*reviewer) {
        return makeError(ErrorCode::Internal, "reviewer vanished after insert", m_db.path());
    }
    return std::move(**reviewer);
}

Expected<std::vector<Reviewer>> ReviewerRepository::list() {
    return selectRows(m_db, "SELECT id, name, added_at FROM reviewer ORDER BY id", readReviewer);
}

} // namespace kl::core
