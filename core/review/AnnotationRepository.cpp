#include "review/AnnotationRepository.h"

#include "db/Database.h"
#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "db/Transaction.h"
#include "review/TextCheck.h"
#include "rubric/Rubric.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

namespace {

constexpr std::string_view kColumns =
    "id, task_id, anchor_kind, t0_ns, t1_ns, instruction_id, first_line, last_line, item_id, severity, score, "
    "text, author, created_at, updated_at, resolved";

Annotation readAnnotation(const Statement& row) {
    Annotation a;
    a.id = row.int64(0);
    a.taskId = row.int64(1);
    a.anchor.kind = parseAnchorKind(row.text(2)).value_or(AnchorKind::TimeRange);
    switch (a.anchor.kind) {
    case AnchorKind::TimeRange:
        a.anchor.t0Ns = row.int64(3);
        a.anchor.t1Ns = row.int64(4);
        break;
    case AnchorKind::Instruction: a.anchor.instructionId = row.int64(5); break;
    case AnchorKind::NkiLines:
    case AnchorKind::CudaLines:
        a.anchor.firstLine = static_cast<int>(row.int64(6));
        a.anchor.lastLine = static_cast<int>(row.int64(7));
        break;
    }
    a.rubricItem = row.text(8);
    a.severity = parseSeverity(row.text(9)).value_or(Severity::Minor);
    if (!row.isNull(10)) {
        a.score = static_cast<int>(row.int64(10));
    }
    a.text = row.text(11);
    a.author = row.text(12);
    a.createdAt = row.text(13);
    a.updatedAt = row.text(14);
    a.resolved = row.int64(15) != 0;
    return a;
}

Reply readReply(const Statement& row) {
    return Reply{row.int64(0), row.int64(1), row.text(2), row.text(3), row.text(4)};
}

Expected<void> checkAnchor(const Anchor& anchor) {
    switch (anchor.kind) {
    case AnchorKind::TimeRange:
        if (anchor.t0Ns < 0 || anchor.t1Ns < anchor.t0Ns) {
            return makeError(ErrorCode::InvalidArgument,
                             fmt::format("time range {}:{} ns must have 0 <= start <= end", anchor.t0Ns, anchor.t1Ns));
        }
        return {};
    case AnchorKind::Instruction:
        if (anchor.instructionId < 0) {
            return makeError(ErrorCode::InvalidArgument, "instruction id must not be negative");
        }
        return {};
    case AnchorKind::NkiLines:
    case AnchorKind::CudaLines:
        if (anchor.firstLine < 1 || anchor.lastLine < anchor.firstLine) {
            return makeError(ErrorCode::InvalidArgument, fmt::format("line range {}-{} must have 1 <= first <= last",
                                                                     anchor.firstLine, anchor.lastLine));
        }
        return {};
    }
    return makeError(ErrorCode::InvalidArgument, "unknown anchor kind");
}

} // namespace

Expected<void> AnnotationRepository::validate(const Annotation& a) {
    auto found = exists(m_db, "SELECT 1 FROM task WHERE id = ?1", a.taskId);
    KL_TRY(found);
    if (!*found) {
        return makeError(ErrorCode::NotFound, fmt::format("no task with id {} in this review", a.taskId), m_db.path());
    }
    KL_TRY(checkAnchor(a.anchor));
    const RubricItem* item = a.rubricItem.empty() ? nullptr : m_rubric.findItem(a.rubricItem);
    if (!a.rubricItem.empty() && item == nullptr) {
        return makeError(
            ErrorCode::InvalidArgument,
            fmt::format("rubric item \"{}\" is not in the review's rubric \"{}\"", a.rubricItem, m_rubric.id));
    }
    if (a.score) {
        if (item == nullptr) {
            return makeError(ErrorCode::InvalidArgument, "a score needs a rubric item to be scored against");
        }
        if (!item->scale.accepts(*a.score)) {
            return makeError(ErrorCode::InvalidArgument,
                             fmt::format("score {} is outside the scale of \"{}\" ({} to {})", *a.score, item->id,
                                         item->scale.minValue(), item->scale.maxValue()));
        }
    }
    return then(checkText(a.text, "annotation text", false), [&] { return checkText(a.author, "author", false); });
}

Expected<void> AnnotationRepository::ensureReviewer(const std::string& name) {
    return execute(m_db, "INSERT OR IGNORE INTO reviewer(name, added_at) VALUES (?1, ?2)", name, utcNow());
}

Expected<void> AnnotationRepository::write(const Annotation& a, bool insert) {
    // The INSERT serves create (id NULL -> a new id) and restore (the old id); changes to an existing
    // row use UPDATE, never INSERT OR REPLACE, which deletes the row first and cascades its replies away.
    constexpr std::string_view kInsert =
        "INSERT INTO annotation(id, task_id, anchor_kind, t0_ns, t1_ns, instruction_id, first_line, last_line, "
        "item_id, severity, score, text, author, created_at, updated_at, resolved) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)";
    constexpr std::string_view kUpdate =
        "UPDATE annotation SET task_id = ?2, anchor_kind = ?3, t0_ns = ?4, t1_ns = ?5, instruction_id = ?6, "
        "first_line = ?7, last_line = ?8, item_id = ?9, severity = ?10, score = ?11, text = ?12, author = ?13, "
        "created_at = ?14, updated_at = ?15, resolved = ?16 WHERE id = ?1";
    auto stmt = m_db.prepare(insert ? kInsert : kUpdate);
    KL_TRY(stmt);
    const Anchor& an = a.anchor;
    const bool time = an.kind == AnchorKind::TimeRange;
    const bool lines = an.kind == AnchorKind::NkiLines || an.kind == AnchorKind::CudaLines;
    a.id != 0 ? stmt->bind(1, a.id) : stmt->bindNull(1);
    stmt->bind(2, a.taskId).bind(3, toString(an.kind));
    time ? stmt->bind(4, an.t0Ns).bind(5, an.t1Ns) : stmt->bindNull(4).bindNull(5);
    an.kind == AnchorKind::Instruction ? stmt->bind(6, an.instructionId) : stmt->bindNull(6);
    lines ? stmt->bind(7, an.firstLine).bind(8, an.lastLine) : stmt->bindNull(7).bindNull(8);
    a.rubricItem.empty() ? stmt->bindNull(9) : stmt->bind(9, a.rubricItem);
    stmt->bind(10, toString(a.severity)).bind(11, a.score).bind(12, a.text).bind(13, a.author);
    stmt->bind(14, a.createdAt).bind(15, a.updatedAt).bind(16, a.resolved ? 1 : 0);
    return stmt->run();
}

Expected<Annotation> AnnotationRepository::create(Annotation annotation) {
    KL_TRY(validate(annotation));
    annotation.id = 0;
    annotation.createdAt = annotation.updatedAt = utcNow();
    return inTransaction(m_db, [&]() -> Expected<Annotation> {
        KL_TRY(then(ensureReviewer(annotation.author), [&] { return write(annotation, true); }));
        annotation.id = m_db.lastInsertRowId();
        return annotation;
    });
}

Expected<Annotation> AnnotationRepository::update(Annotation annotation) {
    auto existing = get(annotation.id);
    KL_TRY(existing);
    KL_TRY(validate(annotation));
    annotation.createdAt = existing->createdAt;
    annotation.updatedAt = utcNow();
    return inTransaction(m_db, [&]() -> Expected<Annotation> {
        KL_TRY(then(ensureReviewer(annotation.author), [&] { return write(annotation, false); }));
        return annotation;
    });
}

Expected<void> AnnotationRepository::remove(std::int64_t id) {
    return then(execute(m_db, "DELETE FROM annotation WHERE id = ?1", id),
                [&] { return m_db.expectChange(fmt::format("no annotation with id {}", id)); });
}

Expected<Annotation> AnnotationRepository::get(std::int64_t id) {
    auto annotation =
        selectFirst(m_db, fmt::format("SELECT {} FROM annotation WHERE id = ?1", kColumns), readAnnotation, id);
    KL_TRY(annotation);
    if (!*annotation) {
        return makeError(ErrorCode::NotFound, fmt::format("no annotation with id {}", id), m_db.path());
    }
    return std::move(**annotation);
}

Expected<std::vector<Annotation>> AnnotationRepository::list(const AnnotationFilter& filter) {
    // A fixed statement: an unset filter binds NULL and its clause matches every row.
    auto stmt = query(m_db,
                      fmt::format("SELECT {} FROM annotation WHERE (?1 IS NULL OR task_id = ?1) "
                                  "AND (?2 IS NULL OR item_id = ?2) AND (?3 IS NULL OR severity = ?3) "
                                  "AND (?4 IS NULL OR resolved = ?4) AND (?5 IS NULL OR author = ?5) "
                                  "ORDER BY task_id, id",
                                  kColumns),
                      filter.taskId, filter.rubricItem);
    KL_TRY(stmt);
    // Severity and resolved are bound by hand: each is stored as another type than the filter holds.
    filter.severity ? stmt->bind(3, toString(*filter.severity)) : stmt->bindNull(3);
    filter.resolved ? stmt->bind(4, *filter.resolved ? 1 : 0) : stmt->bindNull(4);
    stmt->bind(5, filter.author);
    return collectRows(*stmt, readAnnotation);
}

Expected<Reply> AnnotationRepository::addReply(std::int64_t annotationId, const std::string& author,
                                               const std::string& text) {
    KL_TRY(get(annotationId));
    auto valid = then(checkText(text, "reply text", false), [&] { return checkText(author, "author", false); });
    KL_TRY(valid);
    Reply reply{0, annotationId, author, text, utcNow()};
    return inTransaction(m_db, [&]() -> Expected<Reply> {
        auto saved = then(ensureReviewer(author), [&] {
            return execute(m_db, "INSERT INTO reply(annotation_id, author, text, created_at) VALUES (?1, ?2, ?3, ?4)",
                           annotationId, author, text, reply.createdAt);
        });
        KL_TRY(saved);
        reply.id = m_db.lastInsertRowId();
        return reply;
    });
}

Expected<std::vector<Reply>> AnnotationRepository::replies(std::int64_t annotationId) {
    return selectRows(
        m_db, "SELECT id, annotation_id, author, text, created_at FROM reply WHERE annotation_id = ?1 ORDER BY id",
        readReply, annotationId);
}

Expected<void> AnnotationRepository::removeReply(std::int64_t replyId) {
    return then(execute(m_db, "DELETE FROM reply WHERE id = ?1", replyId),
                [&] { return m_db.expectChange(fmt::format("no reply with id {}", replyId)); });
}

Expected<AnnotationSnapshot> AnnotationRepository::snapshot(std::int64_t id) {
    auto annotation = get(id);
    KL_TRY(annotation);
    auto list = replies(id);
    KL_TRY(list);
    return AnnotationSnapshot{std::move(*annotation), std::move(*list)};
}

Expected<std::int64_t> AnnotationRepository::import(const AnnotationSnapshot& snapshot) {
    Annotation a = snapshot.annotation;
    a.id = 0;
    KL_TRY(validate(a));
    auto tx = m_db.beginTransaction();
    KL_TRY(tx);
    KL_TRY(then(ensureReviewer(a.author), [&] { return write(a, true); }));
    const std::int64_t id = m_db.lastInsertRowId();
    auto insert = m_db.prepare("INSERT INTO reply(annotation_id, author, text, created_at) VALUES (?1, ?2, ?3, ?4)");
    KL_TRY(insert);
    for (const Reply& r : snapshot.replies) {
        KL_TRY(then(ensureReviewer(r.author),
                    [&] { return insert->bind(1, id).bind(2, r.author).bind(3, r.text).bind(4, r.createdAt).run(); }));
        insert->reset();
    }
    KL_TRY(tx->commit());
    return id;
}

Expected<void> AnnotationRepository::restore(const AnnotationSnapshot& snapshot) {
    auto tx = m_db.beginTransaction();
    KL_TRY(tx);
    auto present = exists(m_db, "SELECT 1 FROM annotation WHERE id = ?1", snapshot.annotation.id);
    KL_TRY(present);
    KL_TRY(write(snapshot.annotation, !*present));
    // Replies: put back exactly the snapshot's set.
    KL_TRY(execute(m_db, "DELETE FROM reply WHERE annotation_id = ?1", snapshot.annotation.id));
    auto insert =
        m_db.prepare("INSERT INTO reply(id, annotation_id, author, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)");
    KL_TRY(insert);
    for (const Reply& r : snapshot.replies) {
        insert->bind(1, r.id).bind(2, r.annotationId).bind(3, r.author).bind(4, r.text).bind(5, r.createdAt);
        KL_TRY(insert->run());
        insert->reset();
    }
    return tx->commit();
}

} // namespace kl::core
