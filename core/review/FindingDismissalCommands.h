#pragma once

#include "review/EditCommand.h"
#include "review/ReviewTypes.h"

#include <optional>

// The undoable finding decisions of the Findings dock. Two small classes in one header, as AnnotationCommands.h
// does: each is the other's undo.
namespace kl::core {

/// Dismisses a finding with a reason. Undo removes the dismissal; redo puts the same row back (same id).
class DismissFindingCommand final : public EditCommand {
public:
    explicit DismissFindingCommand(FindingDismissal dismissal) : m_dismissal(std::move(dismissal)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    FindingDismissal m_dismissal; ///< id and time set by the first apply
    bool m_saved = false;
};

/// Restores a dismissed finding (deletes its dismissal); undo writes the dismissal back exactly.
class RestoreFindingCommand final : public EditCommand {
public:
    RestoreFindingCommand(std::int64_t taskId, std::string findingKey)
        : m_taskId(taskId), m_key(std::move(findingKey)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    std::int64_t m_taskId;
    std::string m_key;
    std::optional<FindingDismissal> m_removed;
};

} // namespace kl::core
