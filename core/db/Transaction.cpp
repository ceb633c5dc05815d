#include "db/Transaction.h"

#include "db/Database.h"

#include <utility>

namespace kl::core {

Transaction::Transaction(Transaction&& other) noexcept : m_db(std::exchange(other.m_db, nullptr)) {}

Transaction::~Transaction() {
    if (m_db != nullptr) {
        // Nothing to report to: the error that made us skip commit is already on its way up.
        (void)m_db->exec("ROLLBACK");
    }
}

Expected<void> Transaction::commit() {
    Database* db = std::exchange(m_db, nullptr);
    if (db == nullptr) {
        return makeError(ErrorCode::Internal, "transaction committed twice");
    }
    auto result = db->exec("COMMIT");
    if (!result) {
        (void)db->exec("ROLLBACK");
    }
    return result;
}

} // namespace kl::core
