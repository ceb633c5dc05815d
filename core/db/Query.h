#pragma once

#include "common/Error.h"
#include "db/Database.h"
#include "db/Statement.h"
#include "db/Transaction.h"

#include <string_view>
#include <type_traits>
#include <utility>

namespace kl::core {

// Query helpers over Database: the prepare / bind / step / commit steps a repository repeats, each failure
// passed on as it is, so the repositories read as their SQL instead of ladders of
// `if (!x) return std::unexpected(x.error());`.

/// `sql` prepared with `values` bound to ?1, ?2, ... (std::optional binds NULL when empty).
template <typename... Values>
[[nodiscard]] Expected<Statement> query(Database& db, std::string_view sql, const Values&... values) {
    auto stmt = db.prepare(sql);
    if (stmt) {
        int index = 0;
        (stmt->bind(++index, values), ...);
    }
    return stmt;
}

/// Runs a statement that returns no rows (INSERT, UPDATE, DELETE) with `values` bound to ?1, ?2, ...
template <typename... Values>
[[nodiscard]] Expected<void> execute(Database& db, std::string_view sql, const Values&... values) {
    auto stmt = query(db, sql, values...);
    if (!stmt) {
        return std::unexpected(stmt.error());
    }
    return stmt->run();
}

/// True when `sql` with `values` returns at least one row.
template <typename... Values>
[[nodiscard]] Expected<bool> exists(Database& db, std::string_view sql, const Values&... values) {
    auto stmt = query(db, sql, values...);
    if (!stmt) {
        return std::unexpected(stmt.error());
    }
    return stmt->step();
}

/// Runs `body` (returning Expected<T>) in one immediate transaction, committed only when it succeeds; a failure
/// of the body or of the commit rolls everything back (Transaction's destructor) and is returned.
template <typename F> [[nodiscard]] auto inTransaction(Database& db, F&& body) -> std::invoke_result_t<F> {
    auto tx = db.beginTransaction();
    if (!tx) {
        return std::unexpected(tx.error());
    }
    auto result = std::forward<F>(body)();
    if (!result) {
        return result;
    }
    if (auto committed = tx->commit(); !committed) {
        return std::unexpected(committed.error());
    }
    return result;
}

} // namespace kl::core
