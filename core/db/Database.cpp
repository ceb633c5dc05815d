#include "db/Database.h"

#include "db/Transaction.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cctype>
#include <utility>

namespace kl::core {

namespace {
// Long enough for the GUI and a CLI run to share a file, short enough that a stuck lock is reported.
constexpr int kBusyTimeoutMs = 5000;

/// "file:/a%20b.klreview?immutable=1": SQLite then takes no locks and needs no -shm or -wal file, which a
/// read-only file system could not hold. Every byte outside a safe set is percent-encoded.
std::string immutableUri(const std::string& path) {
    std::string uri = "file:";
    for (const char c : path) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '/' || c == '.' || c == '_' || c == '-' || c == '~') {
            uri += c;
        } else {
            uri += fmt::format("%{:02X}", u);
        }
    }
    return uri + "?immutable=1";
}
} // namespace

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Database::~Database() {
    sqlite3_close_v2(m_db);
}

Expected<Database> Database::open(const std::string& path, OpenMode mode) {
    int flags = SQLITE_OPEN_NOMUTEX;
    std::string name = path;
    switch (mode) {
    case OpenMode::ReadOnly: flags |= SQLITE_OPEN_READONLY; break;
    case OpenMode::Immutable:
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        name = immutableUri(path);
        break;
    case OpenMode::ReadWrite: flags |= SQLITE_OPEN_READWRITE; break;
    case OpenMode::Create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    }
    Database db;
    db.m_path = path;
    int rc = sqlite3_open_v2(name.c_str(), &db.m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db.m_db ? sqlite3_errmsg(db.m_db) : sqlite3_errstr(rc);
        return makeError(ErrorCode::Database, fmt::format("cannot open database: {}", message), path);
    }
    sqlite3_extended_result_codes(db.m_db, 1);
    sqlite3_busy_timeout(db.m_db, kBusyTimeoutMs);
    // Foreign keys are per connection and off by default; our cascades depend on them.
    KL_TRY(db.exec("PRAGMA foreign_keys = ON"));
    return db;
}

Expected<void> Database::exec(std::string_view sql) {
    std::string owned(sql);
    char* message = nullptr;
    int rc = sqlite3_exec(m_db, owned.c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        return makeError(ErrorCode::Database, fmt::format("{} (SQLite: {})", text, sqlite3_errstr(rc)), m_path);
    }
    return {};
}

Expected<Statement> Database::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) {
        return std::unexpected(lastError("preparing statement"));
    }
    return Statement(m_db, stmt);
}

Expected<std::int64_t> Database::queryInt(std::string_view sql) {
    auto stmt = prepare(sql);
    KL_TRY(stmt);
    auto row = stmt->step();
    KL_TRY(row);
    if (!*row) {
        return makeError(ErrorCode::Database, fmt::format("query returned no row: {}", sql), m_path);
    }
    return stmt->int64(0);
}

Expected<Transaction> Database::beginTransaction() {
    KL_TRY(exec("BEGIN IMMEDIATE"));
    return Transaction(*this);
}

std::int64_t Database::lastInsertRowId() const {
    return sqlite3_last_insert_rowid(m_db);
}

Expected<void> Database::expectChange(const std::string& notFoundMessage) const {
    if (changes() == 0) {
        return makeError(ErrorCode::NotFound, notFoundMessage, m_path);
    }
    return {};
}

int Database::changes() const {
    return sqlite3_changes(m_db);
}

bool Database::isReadOnly() const {
    return sqlite3_db_readonly(m_db, "main") == 1;
}

Error Database::lastError(std::string_view context) const {
    const int rc = sqlite3_extended_errcode(m_db);
    return Error{ErrorCode::Database,
                 fmt::format("{}: {} (SQLite: {})", context, sqlite3_errmsg(m_db), sqlite3_errstr(rc)), m_path};
}

} // namespace kl::core
