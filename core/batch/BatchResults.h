#pragma once

#include "common/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kl::core {
class Database;
}

namespace kl::core::batch {

/// The steps a batch can run on a task, in the order they run.
inline constexpr const char* kSteps[] = {"trace", "simulate", "findings", "numerics"};

/// One step of one task as it ended.
struct StepResult {
    std::string task; ///< BatchTask::key
    std::string step; ///< one of kSteps
    std::string contentHash;
    std::string status; ///< ok, failed, timeout, skipped
    std::string error;  ///< what went wrong, when not ok
    std::string errorFile;
    int errorLine = 0;
    std::string figuresJson = "{}"; ///< the step's figures: simulated time, instructions, findings by severity...
    std::int64_t durationMs = 0;
    std::string finishedAt;
};

/// A batch's results file: an SQLite file (application id "KLBR") with one row per task and step. A task's rows
/// are written in one transaction when the task ends, so an interrupted batch (Ctrl+C, SIGKILL, power loss)
/// keeps exactly the tasks that ended and a task is never half-recorded; WAL with synchronous=FULL.
class BatchResults {
public:
    BatchResults(BatchResults&&) noexcept;
    BatchResults& operator=(BatchResults&&) noexcept;
    ~BatchResults();

    /// Opens the results file, creating it when it does not exist; refuses a file that is not one.
    [[nodiscard]] static Expected<BatchResults> open(const std::string& path);

    /// The batch's root folder (task keys are relative to it), recorded by the first run.
    [[nodiscard]] Expected<std::string> root();
    [[nodiscard]] Expected<void> setRoot(const std::string& root);
    /// Per task key, the content hash its recorded rows were made from, when every step of `steps` is recorded.
    [[nodiscard]] Expected<std::map<std::string, std::string>> finishedTasks(const std::vector<std::string>& steps);
    /// Replaces every row of the task with `rows`, in one transaction.
    [[nodiscard]] Expected<void> recordTask(const std::string& task, const std::vector<StepResult>& rows);
    [[nodiscard]] Expected<std::vector<StepResult>> all();
    [[nodiscard]] const std::string& path() const { return m_path; }

private:
    BatchResults() = default;
    std::unique_ptr<Database> m_db;
    std::string m_path;
};

/// Joins the results files of a sharded batch into a new file at `output` (never written over). The same task
/// in two files must have been run on the same content; the later finished rows are kept.
[[nodiscard]] Expected<std::size_t> mergeResults(const std::vector<std::string>& inputs, const std::string& output);

/// The rows as CSV (a header line, RFC 4180 quoting) and as JSON Lines (one object per row).
[[nodiscard]] std::string resultsCsv(const std::vector<StepResult>& rows);
[[nodiscard]] std::string resultsJsonLines(const std::vector<StepResult>& rows);

} // namespace kl::core::batch
