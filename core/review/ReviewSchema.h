#pragma once

#include "common/Error.h"

#include <cstdint>
#include <string_view>

namespace kl::core {

class Database;

/// The review file's schema: how a current file is created and how an older one is brought up to
/// date. docs/review-file.md describes the tables; keep it in step with `kCreateSql` here.
///
/// Versions (PRAGMA user_version and meta.schema_version always agree):
///   1  first release: tasks, files, runs, rubric, scores, annotations, links, reviewers
///   2  adds the `reply` table (annotation replies) and `task.seconds_spent` (time tracking)
///   3  adds `reviewer_score` and `adjudication` (several reviewers merged into one review) and the
///      `finding_dismissal` table (findings the reviewer dismissed, with the reason)
///   4  adds `numerics_run` (value execution of a task's kernel against references; issue 15)
/// A migration step is one transaction, so a crash mid-migration leaves the file at the old version.
class ReviewSchema {
public:
    /// "KLRV" as a big-endian integer: PRAGMA application_id, so `file(1)` and we can tell our files apart.
    static constexpr std::int32_t kApplicationId = 0x4B4C5256;
    static constexpr int kCurrentVersion = 4;
    static constexpr std::string_view kMagic = "KernelLens review";

    /// Creates every table of the current version in an empty database; the caller holds the transaction.
    [[nodiscard]] static Expected<void> createCurrent(Database& db);
    /// Applies every step from `fromVersion` up to `kCurrentVersion`, one transaction per step.
    [[nodiscard]] static Expected<void> migrate(Database& db, int fromVersion);

private:
    [[nodiscard]] static Expected<void> setVersion(Database& db, int version);
};

} // namespace kl::core
