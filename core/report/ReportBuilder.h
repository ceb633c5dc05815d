#pragma once

#include "common/Error.h"
#include "findings/Finding.h"
#include "numerics/NumericsResult.h"
#include "report/ReportModel.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {
class ReviewFile;
}

namespace kl::core::report {

/// Simulates a task from the files stored in the review; used when the report needs a run.
using TaskSimulator =
    std::function<Expected<std::shared_ptr<const sim::SimResult>>(const Task&, const std::vector<TaskFile>&)>;

/// The findings (core/findings) of a task's stored sources; used when the report lists findings. The third argument
/// is the task's latest stored numerics run, or null (the semantics-differ rule reads it).
using TaskFindings = std::function<Expected<std::vector<findings::Finding>>(const Task&, const std::vector<TaskFile>&,
                                                                            const NumericsResult*)>;

struct BuildOptions {
    std::optional<std::int64_t> taskId; ///< one task, or every task in queue order
    std::string generatedAt;            ///< written as is; callers pass utcNow(), tests a constant
    TaskSimulator simulate;             ///< null: never simulate (metrics only from stored runs)
    TaskFindings findings;              ///< null: no findings section
    /// Simulate even when a stored run summary exists: HTML and PDF need the timeline, and instruction
    /// anchors can only be placed in a run.
    bool wantRun = false;
    int maxSnippetLines = 40; ///< longer line ranges are cut (the rest is summarised)
};

/// Gathers a Report from an open review file: per task the header from the stored task.json, summary
/// metrics (latest stored run, else a fresh simulation through `simulate`), the scorecard, and each
/// annotation with its replies, its resolved instruction and its source snippets. Talks only to the
/// ReviewFile and the simulator callback; the writers (MarkdownReport, ...) never see the database.
/// `buildTask` is public so a GUI can build task by task under a progress dialog.
class ReportBuilder {
public:
    ReportBuilder(ReviewFile& file, BuildOptions options) : m_file(file), m_options(std::move(options)) {}

    /// The report without tasks (title, rubric, review file name).
    [[nodiscard]] Report header() const;
    /// The tasks the options select, in queue order; NotFound for an unknown --task.
    [[nodiscard]] Expected<std::vector<Task>> selectedTasks();
    [[nodiscard]] Expected<ReportTask> buildTask(const Task& task);
    /// header() + buildTask() of every selected task.
    [[nodiscard]] Expected<Report> build();

private:
    [[nodiscard]] Expected<void> addFindings(const Task& task, const std::vector<TaskFile>& files, ReportTask& out);

    ReviewFile& m_file;
    BuildOptions m_options;
};

/// Metrics for people from a run summary JSON (the `summary` object of docs/simulator.md, or a
/// document holding one): known figures first in a fixed order, unknown scalar keys after, by name.
[[nodiscard]] std::vector<Metric> metricsFromSummaryJson(const std::string& json);

/// The summary JSON of a simulated run (same keys as `kernellens-cli simulate --json`).
[[nodiscard]] std::string summaryJsonOf(const sim::SimResult& result);

/// BuildOptions::simulate and ::findings for the stored sources of a review's tasks, sharing one trace per task:
/// the builder asks for a task's run and then its findings, and the second comes from the first's trace.
/// Findings use the bundled rules and the task's CUDA side (findings::findingsForRun). `onTrace` (optional) is
/// called before each trace, for a progress line.
struct StoredTaskCallbacks {
    TaskSimulator simulate;
    TaskFindings findings;
};
[[nodiscard]] StoredTaskCallbacks storedTaskCallbacks(std::function<void(const Task&)> onTrace = {});

/// Writes the stored files into a temporary folder and traces + simulates it there (sandboxed front end).
[[nodiscard]] Expected<std::shared_ptr<const sim::SimResult>> simulateStoredTask(const Task& task,
                                                                                 const std::vector<TaskFile>& files);

} // namespace kl::core::report
