#include "review/RunRepository.h"

#include "db/Database.h"
#include "db/ExpectedOps.h"
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
    auto stmt = m_db.prepare(
        "INSERT INTO run(task_id, label, profile_json, summary_json, created_at) VALUES (?1, ?2, ?3, ?4, ?5)");
    KL_TRY(stmt);
    stmt->bind(1, run.taskId)
        .bind(2, run.label)
        .bind(3, run.profileJson)
        .bind(4, run.summaryJson)
        .bind(5, run.createdAt);
    if (auto done = stmt->run(); !done) {
        Error error = done.error();
        error.message = fmt::format("saving simulation run for task {}: {}", run.taskId, error.message);
        return std::unexpected(error);
    }
    run.id = m_db.lastInsertRowId();
    return run;
}

Expected<std::vector<SimRun>> RunRepository::list(std::int64_t taskId) {
    auto stmt = m_db.prepare(
        "SELECT id, task_id, label, profile_json, summary_json, created_at FROM run WHERE task_id = ?1 ORDER BY id");
    KL_TRY(stmt);
    stmt->bind(1, taskId);
    return collectRows(*stmt, [](const Statement& row) {
        return SimRun{row.int64(0), row.int64(1), row.text(2), row.text(3), row.text(4), row.text(5)};
    });
}

} // namespace kl::core
