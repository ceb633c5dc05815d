#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

class Database;
struct Rubric;

/// Rubric scores per task: one value per (task, item), the reviewer who set it last and when.
/// One score per item rather than one per reviewer because a review ends in one agreed scorecard;
/// who changed it is kept. Values are checked against the item's scale in the review's rubric.
class ScoreRepository {
public:
    ScoreRepository(Database& db, const Rubric& rubric) : m_db(db), m_rubric(rubric) {}

    [[nodiscard]] Expected<Score> set(std::int64_t taskId, const std::string& itemId, int value,
                                      const std::string& reviewer);
    [[nodiscard]] Expected<void> clear(std::int64_t taskId, const std::string& itemId);
    [[nodiscard]] Expected<std::vector<Score>> list(std::int64_t taskId);
    /// The item's score for the task, nullopt when unscored.
    [[nodiscard]] Expected<std::optional<Score>> find(std::int64_t taskId, const std::string& itemId);
    /// Writes `score` back exactly (reviewer and time included); for undo.
    [[nodiscard]] Expected<void> restore(const Score& score);

private:
    Database& m_db;
    const Rubric& m_rubric;
};

} // namespace kl::core
