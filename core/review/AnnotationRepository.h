#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <vector>

namespace kl::core {

class Database;
struct Rubric;

/// Annotations and their replies in a review file. Every call is its own transaction and is
/// durable when it returns (WAL, synchronous=FULL): that is what "a crash loses nothing" rests on.
///
/// Validates before writing: the task exists, the anchor is well formed, the rubric item exists in
/// the review's rubric and the score fits its scale, text is UTF-8 (see checkText). The author is
/// added to the reviewer table on first use. `snapshot`/`restore` exist for EditHistory, which
/// must put a deleted annotation back under the same id with the same replies and times.
class AnnotationRepository {
public:
    AnnotationRepository(Database& db, const Rubric& rubric) : m_db(db), m_rubric(rubric) {}

    /// Saves a new annotation; sets createdAt/updatedAt; returns it with its id.
    [[nodiscard]] Expected<Annotation> create(Annotation annotation);
    /// Replaces every editable field of an existing annotation; updatedAt becomes now.
    [[nodiscard]] Expected<Annotation> update(Annotation annotation);
    [[nodiscard]] Expected<void> remove(std::int64_t id);
    [[nodiscard]] Expected<Annotation> get(std::int64_t id);
    /// Matching annotations ordered by task, then creation (id).
    [[nodiscard]] Expected<std::vector<Annotation>> list(const AnnotationFilter& filter = {});

    [[nodiscard]] Expected<Reply> addReply(std::int64_t annotationId, const std::string& author,
                                           const std::string& text);
    [[nodiscard]] Expected<std::vector<Reply>> replies(std::int64_t annotationId);
    [[nodiscard]] Expected<void> removeReply(std::int64_t replyId);

    [[nodiscard]] Expected<AnnotationSnapshot> snapshot(std::int64_t id);
    /// Writes the snapshot back exactly (ids and times included), replacing any row with its id.
    [[nodiscard]] Expected<void> restore(const AnnotationSnapshot& snapshot);
    /// Adds an annotation and its replies from another review (a merge) under new ids, keeping authors and
    /// times exactly; `snapshot.annotation.taskId` must already name this file's task. Returns the new id.
    [[nodiscard]] Expected<std::int64_t> import(const AnnotationSnapshot& snapshot);

private:
    [[nodiscard]] Expected<void> validate(const Annotation& annotation);
    [[nodiscard]] Expected<void> write(const Annotation& annotation, bool insert);
    [[nodiscard]] Expected<void> ensureReviewer(const std::string& name);

    Database& m_db;
    const Rubric& m_rubric;
};

} // namespace kl::core
