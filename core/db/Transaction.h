#pragma once

#include "common/Error.h"

namespace kl::core {

class Database;

/// RAII guard for one transaction: `commit()` makes it durable, destruction without commit rolls it
/// back. An edit that touches several rows uses one, so a crash leaves either all of it or none.
class Transaction {
public:
    explicit Transaction(Database& db) : m_db(&db) {}
    Transaction(Transaction&& other) noexcept;
    Transaction& operator=(Transaction&&) = delete;
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    [[nodiscard]] Expected<void> commit();

private:
    Database* m_db = nullptr; ///< null once committed, rolled back or moved from
};

} // namespace kl::core
