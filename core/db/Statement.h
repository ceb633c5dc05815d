#pragma once

#include "common/Error.h"
#include "support/Try.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace kl::core {

/// One prepared SQLite statement. Values only ever reach SQL through `bind*`, never through string
/// building, so user text (titles, annotation text) cannot change a statement's meaning.
///
/// Life cycle: `Database::prepare` creates it; bind parameters (1-based, as SQLite numbers them);
/// `step()` until it returns false; `reset()` to run it again with new bindings. Columns are 0-based.
/// Owns the sqlite3_stmt and finalizes it on destruction; move-only.
class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, sqlite3_stmt* stmt) : m_db(db), m_stmt(stmt) {}
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    /// Binds text; SQLite copies it, so the view may die after the call.
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }
    Statement& bindBlob(int index, std::span<const std::byte> data);
    Statement& bindNull(int index);
    template <typename T> Statement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bindNull(index);
    }

    /// Runs one step: true when a row is available, false when done.
    [[nodiscard]] Expected<bool> step();
    /// Runs a statement that returns no rows (INSERT/UPDATE/DELETE) to completion.
    [[nodiscard]] Expected<void> run();
    void reset();

    [[nodiscard]] bool isNull(int column) const;
    [[nodiscard]] std::int64_t int64(int column) const;
    [[nodiscard]] double real(int column) const;
    /// Text exactly as stored, embedded NULs and all.
    [[nodiscard]] std::string text(int column) const;
    [[nodiscard]] std::vector<std::byte> blob(int column) const;
    [[nodiscard]] std::optional<std::int64_t> optionalInt64(int column) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

/// Steps `stmt` to the end, turning each row into a value with `read(const Statement&)`.
template <typename F>
[[nodiscard]] auto collectRows(Statement& stmt, F&& read)
    -> Expected<std::vector<std::invoke_result_t<F, const Statement&>>> {
    std::vector<std::invoke_result_t<F, const Statement&>> out;
    for (;;) {
        auto row = stmt.step();
        KL_TRY(row);
        if (!*row) {
            return out;
        }
        out.push_back(read(static_cast<const Statement&>(stmt)));
    }
}

} // namespace kl::core
