#pragma once

#include "review/EditCommand.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kl::core {

/// Sets (or, with no value, clears) a task's score for one rubric item, undoably: undo writes back
/// the previous score exactly, or removes the score when there was none.
class SetScoreCommand final : public EditCommand {
public:
    SetScoreCommand(std::int64_t taskId, std::string itemId, std::optional<int> value, std::string reviewer)
        : m_taskId(taskId), m_itemId(std::move(itemId)), m_value(value), m_reviewer(std::move(reviewer)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    [[nodiscard]] static Expected<void> put(ReviewFile& file, std::int64_t taskId, const std::string& itemId,
                                            const std::optional<Score>& score);

    std::int64_t m_taskId;
    std::string m_itemId;
    std::optional<int> m_value;
    std::string m_reviewer;
    bool m_applied = false;
    std::optional<Score> m_before; ///< score before the first apply
    std::optional<Score> m_after;  ///< score as first saved, so redo is exact
};

} // namespace kl::core
