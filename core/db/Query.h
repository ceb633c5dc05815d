#pragma once

#include "common/Error.h"
#include "db/Database.h"
#include "db/Statement.h"
#include "db/Transaction.h"
#include "support/Try.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kl::core {

// Query helpers over Database: the prepare / bind / step / commit steps a repository repeats, each failure
// passed on as it is, so the repositories read as their SQL instead of ladders of
// unwrap ladders (issue 22).

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
    KL_TRY(stmt);
    return stmt->run();
}

/// True when `sql` with `values` returns at least one row.
template <typename... Values>
[[nodiscard]] Expected<bool> exists(Database& db, std::string_view sql, const Values&... values) {
    auto stmt = query(db, sql, values...);
    KL_TRY(stmt);
    return stmt->step();
}

/// Every row of `sql` with `values`, each turned into a value by `read(const Statement&)`.
template <typename F, typename... Values>
[[nodiscard]] auto selectRows(Database& db, std::string_view sql, F&& read, const Values&... values)
    -> Expected<std::vector<std::invoke_result_t<F, const Statement&>>> {
    auto stmt = query(db, sql, values...);
    KL_TRY(stmt);
    return collectRows(*stmt, std::forward<F>(read));
}

/// The first row of `sql` with `values` read by `read(const Statement&)`, or nothing when there is none (the
/// caller says what a missing row means: "no task with id 5").
template <typename F, typename... Values>
[[nodiscard]] auto selectFirst(Database& db, std::string_view sql, F&& read, const Values&... values)
    -> Expected<std::optional<std::invoke_result_t<F, const Statement&>>> {
    auto stmt = query(db, sql, values...);
    KL_TRY(stmt);
    auto found = stmt->step();
    KL_TRY(found);
    if (!*found) {
        return std::nullopt;
    }
    return std::optional(read(static_cast<const Statement&>(*stmt)));
}

/// `result` with `context` put before its error message ("saving line link for task 3: disk full"), for writes
/// whose SQLite message alone would not say what was being saved.
template <typename T> [[nodiscard]] Expected<T> withContext(Expected<T> result, std::string_view context) {
    if (!result) {
        result.error().message = std::string(context) + ": " + result.error().message;
    }
    return result;
}

/// Readers for one-column queries: `selectFirst(db, "SELECT value FROM meta WHERE key = ?1", textColumn, key)`.
inline std::string textColumn(const Statement& row) {
    return row.text(0);
}
inline std::int64_t intColumn(const Statement& row) {
    return row.int64(0);
}

/// Runs `body` (returning Expected<T>) in one immediate transaction, committed only when it succeeds; a failure
/// of the body or of the commit rolls everything back (Transaction's destructor) and is returned.
template <typename F> [[nodiscard]] auto inTransaction(Database& db, F&& body) -> std::invoke_result_t<F> {
    auto tx = db.beginTransaction();
    KL_TRY(tx);
    auto result = std::forward<F>(body)();
    if (!result) {
        return result;
    }
    KL_TRY(tx->commit());
    return result;
}

} // namespace kl::core
