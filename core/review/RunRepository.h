#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <vector>

namespace kl::core {

class Database;

/// Simulation runs kept in the review: the hardware profile a run used and the summary it produced,
/// both as JSON text, so a report can quote the numbers the reviewer saw without re-simulating.
class RunRepository {
public:
    explicit RunRepository(Database& db) : m_db(db) {}

    [[nodiscard]] Expected<SimRun> add(SimRun run);
    /// Runs of a task, oldest first.
    [[nodiscard]] Expected<std::vector<SimRun>> list(std::int64_t taskId);

private:
    Database& m_db;
};

} // namespace kl::core
