#include "batch/BatchRunner.h"

#include "batch/BatchResults.h"
#include "batch/BatchSteps.h"
#include "support/Subprocess.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace kl::core::batch {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Pending {
    BatchTask task;
    std::string hash;
};

nlohmann::json toJson(const StepResult& r) {
    return {{"step", r.step},
            {"status", r.status},
            {"error", r.error},
            {"error_file", r.errorFile},
            {"error_line", r.errorLine},
            {"figures_json", r.figuresJson},
            {"duration_ms", r.durationMs}};
}

std::vector<StepResult> readWorkerResult(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    std::vector<StepResult> out;
    if (!j.is_array()) {
        return out;
    }
    for (const auto& s : j) {
        StepResult r;
        r.step = s.value("step", "");
        r.status = s.value("status", "failed");
        r.error = s.value("error", "");
        r.errorFile = s.value("error_file", "");
        r.errorLine = s.value("error_line", 0);
        r.figuresJson = s.value("figures_json", "{}");
        r.durationMs = s.value("duration_ms", std::int64_t{0});
        out.push_back(std::move(r));
    }
    return out;
}

/// What a worker that did not finish leaves: every requested step it did not report, with why.
void fillUnreported(std::vector<StepResult>& rows, const std::vector<std::string>& steps, const std::string& status,
                    const std::string& why) {
    for (const std::string& step : steps) {
        if (std::ranges::none_of(rows, [&](const StepResult& r) { return r.step == step; })) {
            StepResult r;
            r.step = step;
            r.status = status;
            r.error = why;
            rows.push_back(std::move(r));
        }
    }
}

std::string lastLines(const std::string& text, std::size_t maxChars) {
    return text.size() <= maxChars ? text : "..." + text.substr(text.size() - maxChars);
}

class Coordinator {
public:
    Coordinator(const BatchOptions& o, BatchResults& results, std::vector<Pending> work,
                const std::function<void(const BatchProgress&)>& onProgress, const std::function<bool()>& shouldStop)
        : m_o(o), m_results(results), m_work(std::move(work)), m_onProgress(onProgress), m_shouldStop(shouldStop) {
        m_progress.total = m_work.size();
    }

    Expected<void> run(BatchSummary& summary) {
        const int jobs = std::clamp(m_o.jobs, 1, 256);
        std::vector<std::thread> threads;
        for (int i = 0; i < jobs; ++i) {
            threads.emplace_back([this] { loop(); });
        }
        for (std::thread& t : threads) {
            t.join();
        }
        summary.ran = m_progress.done;
        summary.failed = m_progress.failed;
        summary.workSeconds = m_workMs / 1000.0;
        summary.interrupted = m_stopped.load();
        if (m_error) {
            return std::unexpected(*m_error);
        }
        return {};
    }

private:
    void loop() {
        TemporaryDirectory scratch;
        for (;;) {
            const std::size_t i = m_next++;
            if (i >= m_work.size() || stopping()) {
                return;
            }
            std::vector<StepResult> rows = runOne(m_work[i], scratch.path());
            if (stopping() && m_stopped) {
                return; // killed by the stop: nothing of this task is recorded, a resume redoes it
            }
            record(m_work[i], std::move(rows));
        }
    }

    bool stopping() {
        if (!m_stopped && m_shouldStop && m_shouldStop()) {
            m_stopped = true;
        }
        return m_stopped || m_failed;
    }

    std::vector<StepResult> runOne(const Pending& p, const fs::path& scratch) {
        const fs::path resultFile = scratch / "result.json";
        std::error_code ec;
        fs::remove(resultFile, ec);
        std::string steps;
        for (const std::string& s : m_o.steps) {
            steps += (steps.empty() ? "" : ",") + s;
        }
        std::vector<std::string> argv{m_o.workerProgram.string(),
                                      "batch",
                                      "task",
                                      p.task.folder.string(),
                                      "--steps",
                                      steps,
                                      "--result",
                                      resultFile.string(),
                                      "--trace-timeout",
                                      std::to_string(m_o.taskTimeoutSeconds)};
        if (!m_o.hardware.empty()) {
            argv.insert(argv.end(), {"--hw", m_o.hardware});
        }
        if (m_o.allowUnsandboxed) {
            argv.emplace_back("--no-sandbox");
        }
        ProcessOptions po;
        po.wallClockLimit = std::chrono::seconds(m_o.taskTimeoutSeconds);
        po.memoryMegabytes = m_o.memoryMegabytes;
        po.isolateNetwork = false; // the worker's own trace step isolates the kernel
        po.captureHeadBytes = 4096;
        po.captureTailBytes = 4096;
        const auto t0 = Clock::now();
        auto done = runSubprocess(argv, po, [this] { return stopping(); });
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
        std::vector<StepResult> rows = readWorkerResult(resultFile);
        if (!done) {
            fillUnreported(rows, m_o.steps, "failed", "cannot start the worker: " + done.error().message);
        } else if (done->timedOut) {
            fillUnreported(rows, m_o.steps, "timeout",
                           fmt::format("the task ran past its limit of {} s and was stopped", m_o.taskTimeoutSeconds));
        } else if (done->exitCode != 0 || rows.empty()) {
            fillUnreported(rows, m_o.steps, "failed",
                           done->signal != 0 ? fmt::format("the worker died of signal {}", done->signal)
                                             : "the worker failed: " + lastLines(done->err, 600));
        }
        std::int64_t work = 0;
        for (StepResult& r : rows) {
            r.task = p.task.key;
            r.contentHash = p.hash;
            r.finishedAt = utcNow();
            work += r.durationMs;
        }
        m_workMs += std::min<std::int64_t>(work, ms);
        return rows;
    }

    void record(const Pending& p, std::vector<StepResult> rows) {
        const bool bad = std::ranges::any_of(rows, [](const StepResult& r) {
            return r.status != "ok" && !(r.status == "skipped" && r.step == "numerics");
        });
        std::lock_guard lock(m_mutex);
        if (auto ok = m_results.recordTask(p.task.key, rows); !ok) {
            m_error = ok.error();
            m_failed = true;
            return;
        }
        ++m_progress.done;
        m_progress.failed += bad ? 1 : 0;
        m_progress.elapsedSeconds = std::chrono::duration<double>(Clock::now() - m_start).count();
        if (m_onProgress) {
            m_onProgress(m_progress);
        }
    }

    const BatchOptions& m_o;
    BatchResults& m_results;
    std::vector<Pending> m_work;
    const std::function<void(const BatchProgress&)>& m_onProgress;
    const std::function<bool()>& m_shouldStop;
    std::atomic<std::size_t> m_next{0};
    std::atomic<bool> m_stopped{false};
    std::atomic<bool> m_failed{false}; ///< the results file could not be written: stop, say why
    std::atomic<std::int64_t> m_workMs{0};
    std::mutex m_mutex;
    BatchProgress m_progress;
    std::optional<Error> m_error;
    Clock::time_point m_start = Clock::now();
};

} // namespace

Expected<BatchSummary> runBatch(const BatchOptions& o, const std::function<void(const BatchProgress&)>& onProgress,
                                const std::function<bool()>& shouldStop) {
    const auto t0 = Clock::now();
    fs::path root;
    auto tasks = discoverTasks(o.source, root);
    KL_TRY(tasks);
    auto results = BatchResults::open(o.resultsPath);
    KL_TRY(results);
    auto recordedRoot = results->root();
    KL_TRY(recordedRoot);
    if (recordedRoot->empty()) {
        KL_TRY(results->setRoot(root.string()));
    }
    auto finished = results->finishedTasks(o.steps);
    KL_TRY(finished);
    BatchSummary summary;
    summary.found = tasks->size();
    std::vector<Pending> work;
    for (BatchTask& t : *tasks) {
        if (o.shard && shardOf(t.key, o.shard->second) != o.shard->first) {
            ++summary.otherShards;
            continue;
        }
        auto hash = taskContentHash(t.folder);
        const std::string h = hash ? *hash : "unreadable";
        auto it = finished->find(t.key);
        if (it != finished->end() && it->second == h) {
            ++summary.upToDate;
            continue;
        }
        work.push_back({std::move(t), h});
    }
    Coordinator coordinator(o, *results, std::move(work), onProgress, shouldStop);
    auto ran = coordinator.run(summary);
    summary.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    KL_TRY(ran);
    return summary;
}

Expected<void> runWorker(const fs::path& folder, const std::vector<std::string>& steps, const std::string& hardware,
                         int traceTimeoutSeconds, bool allowUnsandboxed, const fs::path& resultFile) {
    const std::vector<StepResult> rows =
        runTaskSteps(folder, StepOptions{steps, hardware, traceTimeoutSeconds, allowUnsandboxed});
    nlohmann::json out = nlohmann::json::array();
    for (const StepResult& r : rows) {
        out.push_back(toJson(r));
    }
    std::ofstream file(resultFile, std::ios::binary | std::ios::trunc);
    file << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!file.flush()) {
        return makeError(ErrorCode::Io, "cannot write the task's result", resultFile.string());
    }
    return {};
}

} // namespace kl::core::batch
