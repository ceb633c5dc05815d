#pragma once

#include "common/Error.h"
#include "review/AnnotationRepository.h"
#include "review/FindingDismissalRepository.h"
#include "review/LinkRepository.h"
#include "review/NumericsRunRepository.h"
#include "review/ReviewerRepository.h"
#include "review/RunRepository.h"
#include "review/ScoreRepository.h"
#include "review/TaskRepository.h"
#include "review/TeamRepository.h"
#include "rubric/Rubric.h"
#include "rubric/Scorecard.h"

#include <memory>
#include <string>

namespace kl::core {

class Database;

/// One open `.klreview` file: the entry point the CLI and the GUI use. It owns the SQLite connection
/// and the review's rubric; the repositories it hands out (`tasks()`, `annotations()`, ...) are
/// cheap views on that connection and must not outlive it.
///
/// Opening is careful not to harm files that are not ours: the header is read with plain file I/O
/// (SQLite magic, application id, schema version) before SQLite opens the file read-write; a newer
/// schema, a foreign or a corrupted file is refused and left byte-identical. Only then does it switch
/// to WAL with synchronous=FULL (every committed edit survives a crash or power loss) and migrate an
/// older schema forward, one transaction per step.
///
/// A review that cannot be written (a read-only file system, a folder or file without write permission) is
/// opened read-only instead: `readOnly()` is true, `readOnlyReason()` says why, nothing is migrated and every
/// edit fails with SQLite's "readonly database" error. One that would first need migrating is refused.
class ReviewFile {
public:
    struct CreateOptions {
        std::string rubricJson;   ///< the rubric template; copied into the file
        std::string rubricSource; ///< where it came from, for people ("nki-migration.json")
        std::string reviewer;     ///< optional first reviewer
    };

    ReviewFile(ReviewFile&&) noexcept;
    ReviewFile& operator=(ReviewFile&&) noexcept;
    ~ReviewFile();

    /// Creates a new review; refuses to overwrite an existing file.
    [[nodiscard]] static Expected<ReviewFile> create(const std::string& path, const CreateOptions& options);
    [[nodiscard]] static Expected<ReviewFile> open(const std::string& path);
    /// Writes a complete, consistent copy of this review to `path` (which must not exist) and leaves this file
    /// as it is: "Save As" for a writable review, the way to edit one that is read-only. Works on a read-only
    /// open too. The copy is a plain review file the caller can open.
    [[nodiscard]] Expected<void> saveCopy(const std::string& path);

    [[nodiscard]] const std::string& path() const { return m_path; }
    /// True when the file was opened for reading only; readOnlyReason() says why ("it is on a read-only file
    /// system"), for a banner or a CLI note.
    [[nodiscard]] bool readOnly() const { return !m_readOnlyReason.empty(); }
    [[nodiscard]] const std::string& readOnlyReason() const { return m_readOnlyReason; }
    /// Schema version the file had before this open (ReviewSchema::kCurrentVersion when none ran).
    [[nodiscard]] int openedVersion() const { return m_openedVersion; }
    [[nodiscard]] const Rubric& rubric() const { return *m_rubric; }
    [[nodiscard]] const std::string& rubricJson() const { return m_rubricJson; }

    [[nodiscard]] TaskRepository tasks();
    [[nodiscard]] AnnotationRepository annotations();
    [[nodiscard]] ScoreRepository scores();
    [[nodiscard]] LinkRepository links();
    [[nodiscard]] RunRepository runs();
    [[nodiscard]] ReviewerRepository reviewers();
    /// Each reviewer's own scores and the adjudications of a merged review (review merge).
    [[nodiscard]] TeamRepository team();
    [[nodiscard]] FindingDismissalRepository findingDismissals();
    /// Numerics runs (schema version 4): value execution against references (issue 15).
    [[nodiscard]] NumericsRunRepository numericsRuns();
    /// The task's scorecard from its scores and annotations under the review's rubric.
    [[nodiscard]] Expected<Scorecard> scorecard(std::int64_t taskId);
    [[nodiscard]] Database& database() { return *m_db; }

private:
    ReviewFile() = default;
    [[nodiscard]] Expected<void> loadRubric();
    [[nodiscard]] Expected<void> enableWal();

    std::unique_ptr<Database> m_db; ///< on the heap so repositories keep a stable reference across moves
    std::unique_ptr<Rubric> m_rubric;
    std::string m_rubricJson;
    std::string m_path;
    std::string m_readOnlyReason; ///< empty: writable
    int m_openedVersion = 0;
};

} // namespace kl::core
