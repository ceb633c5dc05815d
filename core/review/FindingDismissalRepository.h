#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace kl::core {

class Database;

/// The `finding_dismissal` table: findings a reviewer set aside, one row per task and finding key, with the
/// reason. `add` refuses an empty reason (a dismissal without one cannot be weighed later) and a second dismissal
/// of the same finding; `put` writes a row back exactly (id and time included), which is how undo restores one.
class FindingDismissalRepository {
public:
    explicit FindingDismissalRepository(Database& db) : m_db(db) {}

    [[nodiscard]] Expected<FindingDismissal> add(FindingDismissal dismissal);
    [[nodiscard]] Expected<void> put(const FindingDismissal& dismissal);
    /// Removes the dismissal of `findingKey` in the task; NotFound when there is none.
    [[nodiscard]] Expected<FindingDismissal> remove(std::int64_t taskId, std::string_view findingKey);
    /// The task's dismissals, oldest first.
    [[nodiscard]] Expected<std::vector<FindingDismissal>> list(std::int64_t taskId);

private:
    Database& m_db;
};

} // namespace kl::core
