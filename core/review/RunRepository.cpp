#include "review/RunRepository.h"

#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

Expected<SimRun> RunRepository::add(SimRun run) {
    auto valid = then(then(checkText(run.label, "run label", true),
                           [&] { return checkText(run.profileJson, "hardware profile JSON", false); }),
                      [&] { return checkText(run.summaryJson, "run summary JSON", false); });
    KL_TRY(valid);
    run.createdAt = utcNow();
    KL_TRY(withContext(execute(m_db,
                               "INSERT INTO run(task_id, label, profile_json, summary_json, created_at) "
                               "VALUES (?1, ?2, ?3, ?4, ?5)",
                               run.taskId, run.label, run.profileJson, run.summaryJson, run.createdAt),
                       fmt::format("saving simulation run for task {}", run.taskId)));
    run.id = m_db.lastInsertRowId();
    return run;
}

Expected<std::vector<SimRun>> RunRepository::list(std::int64_t taskId) {
    return selectRows(
        m_db,
        "SELECT id, task_id, label, profile_json, summary_json, created_at FROM run WHERE task_id = ?1 ORDER BY id",
        [](const Statement& row) {
            return SimRun{row.int64(0), row.int64(1), row.text(2), row.text(3), row.text(4), row.text(5)};
        },
        taskId);
}

} // namespace kl::core
