#pragma once

#include "batch/BatchTask.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kl::core::batch {

struct BatchOptions {
    std::filesystem::path source; ///< a folder of task folders, or a manifest
    std::string resultsPath;      ///< the results file (created, or resumed)
    int jobs = 1;                 ///< tasks at once, each in its own worker process
    std::vector<std::string> steps{"trace", "simulate", "findings"};
    std::string hardware;
    std::optional<std::pair<std::uint32_t, std::uint32_t>> shard; ///< 0-based index, count
    int taskTimeoutSeconds = 900; ///< wall clock per task (its worker and everything it starts)
    long memoryMegabytes = 8192;  ///< address space per worker
    bool allowUnsandboxed = false;
    std::filesystem::path workerProgram; ///< kernellens-cli, run as `batch task ...`
};

struct BatchProgress {
    std::size_t total = 0; ///< tasks this run has to do (after skipping finished ones and other shards)
    std::size_t done = 0;
    std::size_t failed = 0; ///< tasks with a step that did not end ok (skipped numerics aside)
    double elapsedSeconds = 0;
};

struct BatchSummary {
    std::size_t found = 0;       ///< task folders found
    std::size_t otherShards = 0; ///< left to other shards
    std::size_t upToDate = 0;    ///< already recorded for the same content: skipped
    std::size_t ran = 0;
    std::size_t failed = 0;
    bool interrupted = false; ///< stopped by the caller; the tasks that ended are recorded
    double seconds = 0;
    double workSeconds = 0; ///< the steps' own time, summed over tasks (the rest is per-task overhead)
};

/// Runs a batch: finds the tasks, leaves those of other shards and those whose results are recorded for the same
/// content, and runs the rest `jobs` at a time, each task in its own worker process with a wall-clock and
/// memory limit (a worker that crashes or runs out of time is a recorded result). Each task's rows are written
/// when it ends, so a batch stopped at any point resumes where it was. `shouldStop` is polled; in-flight tasks
/// are then killed and not recorded.
[[nodiscard]] Expected<BatchSummary> runBatch(const BatchOptions& options,
                                              const std::function<void(const BatchProgress&)>& onProgress = {},
                                              const std::function<bool()>& shouldStop = {});

/// The worker's side (`kernellens-cli batch task`): runs the steps on one folder and writes the results as JSON
/// to `resultFile`.
[[nodiscard]] Expected<void> runWorker(const std::filesystem::path& folder, const std::vector<std::string>& steps,
                                       const std::string& hardware, int traceTimeoutSeconds, bool allowUnsandboxed,
                                       const std::filesystem::path& resultFile);

} // namespace kl::core::batch
