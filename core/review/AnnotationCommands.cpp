#include "review/AnnotationCommands.h"

#include "review/ReviewFile.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

Expected<void> CreateAnnotationCommand::apply(ReviewFile& file) {
    auto repo = file.annotations();
    if (m_removed) {
        auto restored = repo.restore(*m_removed);
        if (restored) {
            m_removed.reset();
        }
        return restored;
    }
    auto saved = repo.create(m_annotation);
    KL_TRY(saved);
    m_annotation = std::move(*saved);
    return {};
}

Expected<void> CreateAnnotationCommand::revert(ReviewFile& file) {
    auto repo = file.annotations();
    auto snapshot = repo.snapshot(m_annotation.id);
    KL_TRY(snapshot);
    auto removed = repo.remove(m_annotation.id);
    if (removed) {
        m_removed = std::move(*snapshot);
    }
    return removed;
}

Expected<void> UpdateAnnotationCommand::apply(ReviewFile& file) {
    auto repo = file.annotations();
    if (m_applied) {
        return repo.restore(*m_applied);
    }
    auto before = repo.snapshot(m_after.id);
    KL_TRY(before);
    auto saved = repo.update(m_after);
    KL_TRY(saved);
    m_before = std::move(*before);
    m_applied = AnnotationSnapshot{std::move(*saved), m_before->replies};
    return {};
}

Expected<void> UpdateAnnotationCommand::revert(ReviewFile& file) {
    if (!m_before) {
        return makeError(ErrorCode::Internal, "undo of an annotation edit that was never applied");
    }
    auto repo = file.annotations();
    // Replies added since are kept: only the annotation row goes back.
    auto current = repo.replies(m_after.id);
    KL_TRY(current);
    AnnotationSnapshot previous{m_before->annotation, std::move(*current)};
    m_applied->replies = previous.replies;
    return repo.restore(previous);
}

std::string UpdateAnnotationCommand::description() const {
    return fmt::format("Edit annotation {}", m_after.id);
}

Expected<void> DeleteAnnotationCommand::apply(ReviewFile& file) {
    auto repo = file.annotations();
    auto snapshot = repo.snapshot(m_id);
    KL_TRY(snapshot);
    auto removed = repo.remove(m_id);
    if (removed) {
        m_removed = std::move(*snapshot);
    }
    return removed;
}

Expected<void> DeleteAnnotationCommand::revert(ReviewFile& file) {
    if (!m_removed) {
        return makeError(ErrorCode::Internal, "undo of an annotation delete that was never applied");
    }
    return file.annotations().restore(*m_removed);
}

std::string DeleteAnnotationCommand::description() const {
    return fmt::format("Delete annotation {}", m_id);
}

} // namespace kl::core
