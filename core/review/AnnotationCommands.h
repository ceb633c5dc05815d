#pragma once

#include "review/EditCommand.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>

// The undoable annotation edits. Three small classes in one header, against the one-class-per-file
// habit, because they only make sense together and each is a few lines.
namespace kl::core {

/// Adds an annotation. Undo deletes it (keeping a snapshot with any replies); redo restores it under
/// the same id, which AUTOINCREMENT keeps free, so later commands that name the id stay valid.
class CreateAnnotationCommand final : public EditCommand {
public:
    explicit CreateAnnotationCommand(Annotation annotation) : m_annotation(std::move(annotation)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override { return "Add annotation"; }
    /// The saved id, 0 before the first apply.
    [[nodiscard]] std::int64_t id() const { return m_annotation.id; }

private:
    Annotation m_annotation;
    std::optional<AnnotationSnapshot> m_removed; ///< set while undone
};

/// Replaces an annotation's fields (text, anchor, severity, score, resolved ...). Undo writes the
/// exact previous row back, times included.
class UpdateAnnotationCommand final : public EditCommand {
public:
    explicit UpdateAnnotationCommand(Annotation after) : m_after(std::move(after)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    Annotation m_after;
    std::optional<AnnotationSnapshot> m_before;
    std::optional<AnnotationSnapshot> m_applied; ///< the row as first saved, so redo is exact too
};

/// Deletes an annotation and its replies; undo puts both back unchanged.
class DeleteAnnotationCommand final : public EditCommand {
public:
    explicit DeleteAnnotationCommand(std::int64_t id) : m_id(id) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    std::int64_t m_id;
    std::optional<AnnotationSnapshot> m_removed;
};

} // namespace kl::core
