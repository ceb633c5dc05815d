#include "ShimVfs.h"

#include <cstddef>
#include <cstdlib>

namespace kl::core::test {

/// Our file: the real VFS's file follows it in the same allocation (szOsFile covers both).
struct ShimVfs::File {
    sqlite3_file base;
    ShimVfs* owner;
    bool counted; ///< the main database or its WAL: the files whose syncs make a commit durable
};
using ShimVfsFileHeader = ShimVfs::File;

namespace {

/// Where the real file starts: after ours, aligned for anything the real VFS keeps in it.
constexpr std::size_t kRealOffset =
    (sizeof(ShimVfsFileHeader) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);

sqlite3_file* realOf(sqlite3_file* f) {
    return reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + kRealOffset);
}

} // namespace

sqlite3_file* ShimVfs::real(sqlite3_file* f) {
    return realOf(f);
}

ShimVfs& ShimVfs::self(sqlite3_file* f) {
    return *reinterpret_cast<File*>(f)->owner;
}

ShimVfs::ShimVfs() {
    m_real = sqlite3_vfs_find(nullptr);
    m_vfs = *m_real;
    m_vfs.zName = "kl-test-shim";
    m_vfs.szOsFile = static_cast<int>(kRealOffset) + m_real->szOsFile;
    m_vfs.pAppData = this;
    m_vfs.xOpen = &ShimVfs::open;
    if (sqlite3_vfs_register(&m_vfs, 1) != SQLITE_OK) {
        std::abort();
    }
}

ShimVfs::~ShimVfs() {
    sqlite3_vfs_unregister(&m_vfs);
    sqlite3_vfs_register(m_real, 1); // the previous default again
}

int ShimVfs::open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags) {
    ShimVfs& shim = *static_cast<ShimVfs*>(vfs->pAppData);
    auto* f = reinterpret_cast<File*>(file);
    f->base.pMethods = nullptr;
    f->owner = &shim;
    f->counted = (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL)) != 0;
    sqlite3_file* r = realOf(file);
    const int rc = shim.m_real->xOpen(shim.m_real, name, r, flags, outFlags);
    if (r->pMethods != nullptr) {
        f->base.pMethods = methodsFor(r->pMethods->iVersion); // close must reach the real file even on failure
    }
    return rc;
}

int ShimVfs::close(sqlite3_file* f) {
    return real(f)->pMethods->xClose(real(f));
}

int ShimVfs::read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
    return real(f)->pMethods->xRead(real(f), buf, n, off);
}

int ShimVfs::write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
    ShimVfs& s = self(f);
    if (s.m_fail == Fail::Write && reinterpret_cast<File*>(f)->counted) {
        ++s.m_failures;
        return SQLITE_IOERR_WRITE;
    }
    return real(f)->pMethods->xWrite(real(f), buf, n, off);
}

int ShimVfs::sync(sqlite3_file* f, int flags) {
    ShimVfs& s = self(f);
    if (!reinterpret_cast<File*>(f)->counted) {
        return real(f)->pMethods->xSync(real(f), flags);
    }
    if (s.m_fail == Fail::Sync) {
        ++s.m_failures;
        return SQLITE_IOERR_FSYNC;
    }
    ++s.m_syncs;
    return real(f)->pMethods->xSync(real(f), flags);
}

const sqlite3_io_methods* ShimVfs::methodsFor(int version) {
    // Close, read, write and sync are ours; everything else goes straight to the real file. One table per
    // io_methods version, so SQLite asks for shared memory (WAL) and memory mapping only where the real file has them.
    static const sqlite3_io_methods* const tables = [] {
        static sqlite3_io_methods v[3];
        for (int i = 0; i < 3; ++i) {
            v[i].iVersion = i + 1;
            v[i].xClose = &close;
            v[i].xRead = &read;
            v[i].xWrite = &write;
            v[i].xSync = &sync;
            v[i].xTruncate = [](sqlite3_file* f, sqlite3_int64 size) {
                return real(f)->pMethods->xTruncate(real(f), size);
            };
            v[i].xFileSize = [](sqlite3_file* f, sqlite3_int64* size) {
                return real(f)->pMethods->xFileSize(real(f), size);
            };
            v[i].xLock = [](sqlite3_file* f, int l) { return real(f)->pMethods->xLock(real(f), l); };
            v[i].xUnlock = [](sqlite3_file* f, int l) { return real(f)->pMethods->xUnlock(real(f), l); };
            v[i].xCheckReservedLock = [](sqlite3_file* f, int* out) {
                return real(f)->pMethods->xCheckReservedLock(real(f), out);
            };
            v[i].xFileControl = [](sqlite3_file* f, int op, void* arg) {
                return real(f)->pMethods->xFileControl(real(f), op, arg);
            };
            v[i].xSectorSize = [](sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); };
            v[i].xDeviceCharacteristics = [](sqlite3_file* f) {
                return real(f)->pMethods->xDeviceCharacteristics(real(f));
            };
            if (i >= 1) {
                v[i].xShmMap = [](sqlite3_file* f, int page, int size, int extend, void volatile** out) {
                    return real(f)->pMethods->xShmMap(real(f), page, size, extend, out);
                };
                v[i].xShmLock = [](sqlite3_file* f, int offset, int n, int flags) {
                    return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
                };
                v[i].xShmBarrier = [](sqlite3_file* f) { real(f)->pMethods->xShmBarrier(real(f)); };
                v[i].xShmUnmap = [](sqlite3_file* f, int del) { return real(f)->pMethods->xShmUnmap(real(f), del); };
            }
            if (i >= 2) {
                v[i].xFetch = [](sqlite3_file* f, sqlite3_int64 off, int amt, void** p) {
                    return real(f)->pMethods->xFetch(real(f), off, amt, p);
                };
                v[i].xUnfetch = [](sqlite3_file* f, sqlite3_int64 off, void* p) {
                    return real(f)->pMethods->xUnfetch(real(f), off, p);
                };
            }
        }
        return v;
    }();
    return &tables[version < 1 ? 0 : version > 3 ? 2 : version - 1];
}

} // namespace kl::core::test
