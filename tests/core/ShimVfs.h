#pragma once

#include <sqlite3.h>

#include <atomic>

namespace kl::core::test {

/// A SQLite VFS that wraps the default one and becomes the default while it lives, so every connection the
/// code under test opens goes through it. It counts xSync calls on the main database and its WAL (the promise
/// "a committed edit is on disk" is a sync of the WAL at commit, docs/review-file.md) and, when armed, fails
/// every xSync or xWrite with SQLITE_IOERR, as a full or failing disk would. Register one at a time; close
/// every connection before it is destroyed (it unregisters itself and restores the previous default).
class ShimVfs {
public:
    enum class Fail { Nothing, Sync, Write };

    ShimVfs();
    ~ShimVfs();
    ShimVfs(const ShimVfs&) = delete;
    ShimVfs& operator=(const ShimVfs&) = delete;

    [[nodiscard]] int syncs() const { return m_syncs.load(); }
    [[nodiscard]] int failures() const { return m_failures.load(); }
    void resetCounts() {
        m_syncs = 0;
        m_failures = 0;
    }
    void arm(Fail what) { m_fail = what; }

    struct File; ///< one open file, the real VFS's file after it (ShimVfs.cpp)

private:
    static int open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags);
    static ShimVfs& self(sqlite3_file* file);
    static sqlite3_file* real(sqlite3_file* file);
    static int close(sqlite3_file* f);
    static int read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off);
    static int write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off);
    static int sync(sqlite3_file* f, int flags);
    static const sqlite3_io_methods* methodsFor(int version);

    sqlite3_vfs m_vfs{};
    sqlite3_vfs* m_real = nullptr;
    std::atomic<int> m_syncs{0};
    std::atomic<int> m_failures{0};
    std::atomic<Fail> m_fail{Fail::Nothing};
};

} // namespace kl::core::test
