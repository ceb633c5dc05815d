#pragma once

#include "review/EditCommand.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>

namespace kl::core {

/// Moves a task to another status (to do, in progress, done), undoably: undo restores the status the
/// task had when the command was first applied.
class SetTaskStatusCommand final : public EditCommand {
public:
    SetTaskStatusCommand(std::int64_t taskId, TaskStatus status) : m_taskId(taskId), m_status(status) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    std::int64_t m_taskId;
    TaskStatus m_status;
    std::optional<TaskStatus> m_before; ///< set by the first apply
};

} // namespace kl::core
