#pragma once

#include "review/EditCommand.h"
#include "review/ReviewTypes.h"
#include "review/TeamRepository.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kl::core {

/// Sets the agreed grade of a disputed item with its reason, undoably: undo puts back the grade and the
/// reason that were there before (or none).
class AdjudicateCommand final : public EditCommand {
public:
    AdjudicateCommand(std::int64_t taskId, std::string itemId, int value, std::string reason, std::string adjudicator)
        : m_taskId(taskId), m_itemId(std::move(itemId)), m_value(value), m_reason(std::move(reason)),
          m_adjudicator(std::move(adjudicator)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override;

private:
    [[nodiscard]] Expected<void> put(ReviewFile& file, const std::optional<Score>& score,
                                     const std::optional<Adjudication>& adjudication) const;

    std::int64_t m_taskId;
    std::string m_itemId;
    int m_value;
    std::string m_reason;
    std::string m_adjudicator;
    bool m_applied = false;
    std::optional<Score> m_scoreBefore, m_scoreAfter;
    std::optional<Adjudication> m_before, m_after;
};

} // namespace kl::core
