#pragma once

#include "common/Error.h"
#include "db/Statement.h"

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;

namespace kl::core {

class Transaction;

/// One SQLite connection (C API). Owns the sqlite3 handle; move-only; one per thread, as STYLE.md asks.
///
/// `open` never creates a file unless asked to, so opening a path that is not ours cannot leave an
/// empty database behind. Pragmas that write (journal mode) are left to the caller, which must first
/// check that the file is one it may write to: see `ReviewFile`. `exec` is for fixed SQL written in
/// this code base only; anything carrying user data goes through `prepare` and `Statement::bind`.
class Database {
public:
    /// Immutable: read-only media (a read-only mount, a folder we cannot write): no locks, no -shm or -wal file.
    enum class OpenMode { ReadOnly, Immutable, ReadWrite, Create };

    Database() = default;
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    /// Opens `path`; foreign keys on, a busy timeout so a second connection waits instead of failing.
    [[nodiscard]] static Expected<Database> open(const std::string& path, OpenMode mode);

    /// Runs fixed SQL (one or more statements, no parameters).
    [[nodiscard]] Expected<void> exec(std::string_view sql);
    [[nodiscard]] Expected<Statement> prepare(std::string_view sql);
    /// Runs a single-value query such as `PRAGMA user_version`.
    [[nodiscard]] Expected<std::int64_t> queryInt(std::string_view sql);
    /// Starts an immediate transaction: the write lock is taken now, so a commit cannot fail on lock upgrade.
    [[nodiscard]] Expected<Transaction> beginTransaction();

    [[nodiscard]] std::int64_t lastInsertRowId() const;
    [[nodiscard]] int changes() const;
    /// NotFound with `notFoundMessage` when the last statement changed no row (an update or delete by id).
    [[nodiscard]] Expected<void> expectChange(const std::string& notFoundMessage) const;
    /// True when SQLite fell back to read-only (file or folder not writable).
    [[nodiscard]] bool isReadOnly() const;
    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] sqlite3* handle() const { return m_db; }

    /// An error value carrying SQLite's current message, `context` first ("saving annotation: ...").
    [[nodiscard]] Error lastError(std::string_view context) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
};

} // namespace kl::core
