#include "review/ReviewFile.h"

#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "review/ReviewFileProbe.h"
#include "review/ReviewSchema.h"
#include "review/TextCheck.h"
#include "rubric/RubricLoader.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include <sys/statvfs.h>
#include <unistd.h>

namespace kl::core {

namespace {

constexpr const char* kUntouched = "the file was not changed";

/// Why the review at `path` cannot be written, or nothing when it can. A read-only file system or a folder we
/// cannot write (SQLite keeps FILE-wal and FILE-shm beside the file) need an immutable open.
struct WriteBlock {
    std::string reason;
    bool immutable = false;
};
std::optional<WriteBlock> writeBlock(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
    struct statvfs fs {};
    if (::statvfs(folder.c_str(), &fs) == 0 && (fs.f_flag & ST_RDONLY) != 0) {
        return WriteBlock{"it is on a read-only file system", true};
    }
    if (::access(folder.c_str(), W_OK) != 0) {
        return WriteBlock{"its folder is not writable", true};
    }
    if (::access(path.c_str(), W_OK) != 0) {
        return WriteBlock{"the file is not writable (permissions)", false};
    }
    return std::nullopt;
}

Expected<Database> openChecked(const std::string& path, int& version, std::string& readOnlyReason) {
    auto header = probeReviewFile(path);
    KL_TRY(header);
    auto tooNew = [&](int v) {
        return makeError(ErrorCode::Unsupported,
                         fmt::format("review file has schema version {}, newer than this KernelLens understands "
                                     "(up to {})",
                                     v, ReviewSchema::kCurrentVersion),
                         path, 0, fmt::format("open it with a newer KernelLens; {}", kUntouched));
    };
    if (header->userVersion > ReviewSchema::kCurrentVersion) {
        return tooNew(header->userVersion);
    }
    const std::optional<WriteBlock> block = writeBlock(path);
    const auto mode = !block ? Database::OpenMode::ReadWrite
                             : (block->immutable ? Database::OpenMode::Immutable : Database::OpenMode::ReadOnly);
    auto db = Database::open(path, mode);
    KL_TRY(db);
    // Reads only from here until every check has passed. In WAL mode the version may be newer
    // than the header says, so ask SQLite too.
    auto userVersion = db->queryInt("PRAGMA user_version");
    if (!userVersion) {
        return makeError(ErrorCode::Parse, fmt::format("review file is corrupted: {}", userVersion.error().message),
                         path, 0, kUntouched);
    }
    version = static_cast<int>(*userVersion);
    if (version > ReviewSchema::kCurrentVersion) {
        return tooNew(version);
    }
    const auto verdict = selectFirst(*db, "PRAGMA quick_check(1)", textColumn);
    if (!verdict || *verdict != "ok") {
        const std::string why = !verdict ? verdict.error().message : verdict->value_or("no result");
        return makeError(ErrorCode::Parse, fmt::format("review file is corrupted: {}", why), path, 0,
                         fmt::format("restore it from a backup; {}", kUntouched));
    }
    const auto magic = selectFirst(*db, "SELECT value FROM meta WHERE key = 'magic'", textColumn);
    if (version < 1 || !magic || *magic != ReviewSchema::kMagic) {
        return makeError(ErrorCode::Parse,
                         "not a KernelLens review file: the application id matches but the meta table does not", path,
                         0, kUntouched);
    }
    if (block || db->isReadOnly()) {
        // Every edit is saved as it is made, so a review we cannot write is opened for reading only.
        readOnlyReason = block ? block->reason : "SQLite could open it only for reading";
        if (version < ReviewSchema::kCurrentVersion) {
            return makeError(ErrorCode::Io,
                             fmt::format("review file has schema version {} and must be updated to {}, but it is "
                                         "read-only: {}",
                                         version, ReviewSchema::kCurrentVersion, readOnlyReason),
                             path, 0, fmt::format("open a copy in a writable folder; {}", kUntouched));
        }
    }
    return db;
}

} // namespace

ReviewFile::ReviewFile(ReviewFile&&) noexcept = default;
ReviewFile& ReviewFile::operator=(ReviewFile&&) noexcept = default;
ReviewFile::~ReviewFile() = default;

Expected<ReviewFile> ReviewFile::open(const std::string& path) {
    ReviewFile file;
    file.m_path = path;
    auto db = openChecked(path, file.m_openedVersion, file.m_readOnlyReason);
    KL_TRY(db);
    file.m_db = std::make_unique<Database>(std::move(*db));
    if (file.readOnly()) {
        KL_TRY(file.loadRubric());
        return file;
    }
    auto ready = then(then(file.enableWal(), [&] { return ReviewSchema::migrate(*file.m_db, file.m_openedVersion); }),
                      [&] { return file.loadRubric(); });
    KL_TRY(ready);
    return file;
}

Expected<void> ReviewFile::saveCopy(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        return makeError(ErrorCode::InvalidArgument, "file already exists; a copy is never written over it", path, 0,
                         "choose another name");
    }
    // VACUUM INTO reads one snapshot of the database (committed WAL content included) and writes a fresh,
    // defragmented file; it needs no write access to the source, so read-only reviews can be copied too.
    if (auto done = execute(*m_db, "VACUUM INTO ?1", path); !done) {
        std::filesystem::remove(path, ec); // never leave a half-written copy behind
        Error error = done.error();
        error.file = path;
        error.hint = "choose a folder you can write to";
        return std::unexpected(error);
    }
    return {};
}

Expected<ReviewFile> ReviewFile::create(const std::string& path, const CreateOptions& options) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        return makeError(ErrorCode::InvalidArgument, "file already exists; a new review is never written over it", path,
                         0, "choose another name or open the existing review");
    }
    auto rubric = RubricLoader::parse(options.rubricJson, options.rubricSource);
    KL_TRY(rubric);
    auto built = [&]() -> Expected<ReviewFile> {
        ReviewFile file;
        file.m_path = path;
        file.m_openedVersion = ReviewSchema::kCurrentVersion;
        auto db = Database::open(path, Database::OpenMode::Create);
        KL_TRY(db);
        file.m_db = std::make_unique<Database>(std::move(*db));
        Database& d = *file.m_db;
        auto tx = d.beginTransaction();
        KL_TRY(tx);
        KL_TRY(ReviewSchema::createCurrent(d));
        KL_TRY(execute(d, "INSERT INTO rubric(id, source_name, json) VALUES (1, ?1, ?2)", options.rubricSource,
                       options.rubricJson));
        KL_TRY(execute(d, "INSERT INTO meta(key, value) VALUES ('created_at', ?1), ('created_by', ?2)", utcNow(),
                       "KernelLens"));
        KL_TRY(tx->commit());
        auto ready = then(file.enableWal(), [&] { return file.loadRubric(); });
        KL_TRY(ready);
        if (!options.reviewer.empty()) {
            KL_TRY(file.reviewers().add(options.reviewer));
        }
        return file;
    }();
    if (!built) {
        // We made the file; a half-made review is worse than none.
        std::filesystem::remove(path, ec);
        std::filesystem::remove(path + "-wal", ec);
        std::filesystem::remove(path + "-shm", ec);
    }
    return built;
}

Expected<void> ReviewFile::enableWal() {
    auto mode = selectFirst(*m_db, "PRAGMA journal_mode = WAL", textColumn);
    KL_TRY(mode);
    if (*mode != "wal") {
        return makeError(ErrorCode::Database, "cannot switch the review file to WAL journaling", m_path, 0,
                         "the file system may not support shared memory (network drives); copy the file locally");
    }
    // FULL: a committed edit is on disk when the call returns, even if the machine loses power.
    return m_db->exec("PRAGMA synchronous = FULL");
}

Expected<void> ReviewFile::loadRubric() {
    auto json = selectFirst(*m_db, "SELECT json FROM rubric WHERE id = 1", textColumn);
    KL_TRY(json);
    if (!*json) {
        return makeError(ErrorCode::Parse, "review file holds no rubric", m_path);
    }
    m_rubricJson = std::move(**json);
    auto rubric = RubricLoader::parse(m_rubricJson, m_path + " (stored rubric)");
    KL_TRY(rubric);
    m_rubric = std::make_unique<Rubric>(std::move(*rubric));
    return {};
}

TaskRepository ReviewFile::tasks() {
    return TaskRepository(*m_db);
}
AnnotationRepository ReviewFile::annotations() {
    return AnnotationRepository(*m_db, *m_rubric);
}
ScoreRepository ReviewFile::scores() {
    return ScoreRepository(*m_db, *m_rubric);
}
LinkRepository ReviewFile::links() {
    return LinkRepository(*m_db);
}
TeamRepository ReviewFile::team() {
    return TeamRepository(*m_db, *m_rubric);
}
FindingDismissalRepository ReviewFile::findingDismissals() {
    return FindingDismissalRepository(*m_db);
}
NumericsRunRepository ReviewFile::numericsRuns() {
    return NumericsRunRepository(*m_db);
}
RunRepository ReviewFile::runs() {
    return RunRepository(*m_db);
}
ReviewerRepository ReviewFile::reviewers() {
    return ReviewerRepository(*m_db);
}

Expected<Scorecard> ReviewFile::scorecard(std::int64_t taskId) {
    AnnotationFilter filter;
    filter.taskId = taskId;
    auto scores = this->scores().list(taskId);
    KL_TRY(scores);
    auto notes = annotations().list(filter);
    KL_TRY(notes);
    return computeScorecard(*m_rubric, *scores, *notes);
}

} // namespace kl::core
