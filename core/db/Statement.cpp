#include "db/Statement.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cassert>
#include <utility>

namespace kl::core {

Statement::Statement(Statement&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_stmt(std::exchange(other.m_stmt, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_db = std::exchange(other.m_db, nullptr);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

Statement::~Statement() {
    sqlite3_finalize(m_stmt);
}

// A failing bind is a bug (wrong index, statement already finalized), not bad user input.
Statement& Statement::bind(int index, std::int64_t value) {
    [[maybe_unused]] int rc = sqlite3_bind_int64(m_stmt, index, value);
    assert(rc == SQLITE_OK);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    [[maybe_unused]] int rc = sqlite3_bind_double(m_stmt, index, value);
    assert(rc == SQLITE_OK);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    // SQLITE_TRANSIENT: SQLite copies, so callers may pass temporaries.
    [[maybe_unused]] int rc =
        sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    assert(rc == SQLITE_OK || rc == SQLITE_TOOBIG);
    return *this;
}

Statement& Statement::bindBlob(int index, std::span<const std::byte> data) {
    // A zero-length blob must still be a blob, not NULL, so pass a non-null pointer.
    static const std::byte kEmpty{};
    const void* ptr = data.empty() ? &kEmpty : data.data();
    [[maybe_unused]] int rc = sqlite3_bind_blob64(m_stmt, index, ptr, data.size(), SQLITE_TRANSIENT);
    assert(rc == SQLITE_OK || rc == SQLITE_TOOBIG);
    return *this;
}

Statement& Statement::bindNull(int index) {
    [[maybe_unused]] int rc = sqlite3_bind_null(m_stmt, index);
    assert(rc == SQLITE_OK);
    return *this;
}

Expected<bool> Statement::step() {
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    std::string message = fmt::format("{} (SQLite: {})", sqlite3_errmsg(m_db), sqlite3_errstr(rc));
    const char* file = sqlite3_db_filename(m_db, "main");
    sqlite3_reset(m_stmt);
    return makeError(ErrorCode::Database, std::move(message), file ? file : "");
}

Expected<void> Statement::run() {
    for (;;) {
        auto row = step();
        KL_TRY(row);
        if (!*row) {
            sqlite3_reset(m_stmt);
            return {};
        }
    }
}

void Statement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t Statement::int64(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

double Statement::real(int column) const {
    return sqlite3_column_double(m_stmt, column);
}

std::string Statement::text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

std::vector<std::byte> Statement::blob(int column) const {
    const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::vector<std::byte>(data, data + size) : std::vector<std::byte>();
}

std::optional<std::int64_t> Statement::optionalInt64(int column) const {
    if (isNull(column)) {
        return std::nullopt;
    }
    return int64(column);
}

} // namespace kl::core
