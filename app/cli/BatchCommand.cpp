// `kernellens-cli batch`: trace, simulate and check thousands of task folders, resumably, on one machine or as a
// share of a cluster; merge shards; export results.
#include "cli/CliSupport.h"
#include "cli/Commands.h"

#include "batch/BatchResults.h"
#include "batch/BatchRunner.h"
#include "batch/BatchSteps.h"
#include "batch/BatchTask.h"
#include "batch/ReviewFromResults.h"
#include "rubric/RubricLoader.h"
#include "task/TaskSpec.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string_view>
#include <utility>

#include <sys/prctl.h>

namespace kl::app {
namespace {

namespace batch = core::batch;

constexpr const char* kBatchUsage = R"(Usage: kernellens-cli batch (DIR | MANIFEST) --out RESULTS.db [options]
       kernellens-cli batch merge SHARD.db... -o ALL.db
       kernellens-cli batch export RESULTS.db (--csv OUT | --jsonl OUT)
       kernellens-cli batch plan (DIR | MANIFEST) [--shard I/N]
       kernellens-cli batch review RESULTS.db -o REVIEW.klreview [--status all|failed|ok] [--reviewer NAME]

Runs every task folder under DIR (a folder holding task.json, up to 4 levels down) or listed in MANIFEST (one
folder per line, relative to the manifest) through the steps, each task in its own worker process with its own
time and memory limit. A failing task is a recorded result. Results: one row per task and step in RESULTS.db
(SQLite), written as each task ends. Run it again to resume: tasks recorded for the same file contents are
skipped, changed or unfinished ones are run. Progress on stderr. Ctrl+C stops; what ended is kept.
Options:
  --out FILE         the results file (created, or resumed)
  -j N               tasks at once (default 1)
  --steps LIST       trace,simulate,findings,numerics (default trace,simulate,findings; numerics is recorded as
                     skipped: not available in this build)
  --hw NAME|FILE     hardware profile for every task (default: each task's own, else the API's default)
  --shard I/N        run only share I of N (1-based), chosen by a hash of the task's folder
  --timeout S        wall clock per task in seconds (default 900)
  --memory-mb M      address space per task's worker (default 8192)
  --no-sandbox       run kernels without the OS sandbox where it cannot be set up (docs/sandbox.md)
Exit status: 0 when every task ran (whatever its result), 1 on an error of the batch itself, 2 for a usage
error, 130 when interrupted. Cluster recipes (Slurm, Kubernetes, GNU parallel): docs/batch.md.
`batch review` makes a review of the batch's tasks in triage order: failed numerics first, then kernels that did
not trace or simulate, then by the number and severity of findings, then by the distance from the roofline.
)";

std::atomic<bool> g_interrupted{false};

int batchUsage(const std::string& message) {
    return app::usageError("batch", message);
}

extern "C" void onInterrupt(int) {
    g_interrupted = true;
}

std::string rateText(const batch::BatchProgress& p) {
    if (p.done == 0 || p.elapsedSeconds <= 0) {
        return "";
    }
    const double perMinute = 60.0 * static_cast<double>(p.done) / p.elapsedSeconds;
    const double left = static_cast<double>(p.total - p.done) / (perMinute / 60.0);
    return fmt::format(", {:.1f} tasks/min, ~{:.0f} min {:02.0f} s left", perMinute, std::floor(left / 60.0),
                       std::fmod(left, 60.0));
}

int runRun(const CommandLine& opts) {
    if (opts.positional.size() != 1 || !opts.get("--out")) {
        return batchUsage("give one folder or manifest and --out RESULTS.db");
    }
    batch::BatchOptions o;
    o.source = opts.positional[0];
    o.resultsPath = *opts.get("--out");
    o.hardware = opts.get("--hw").value_or("");
    o.allowUnsandboxed = opts.has("--no-sandbox");
    o.workerProgram = std::filesystem::read_symlink("/proc/self/exe");
    if (auto j = opts.get("-j")) {
        auto n = parseInteger(*j);
        if (!n || *n < 1 || *n > 256) {
            return batchUsage("-j takes a number from 1 to 256");
        }
        o.jobs = static_cast<int>(*n);
    }
    for (const auto& [name, target, lo, hi] : {std::tuple{"--timeout", &o.taskTimeoutSeconds, 1, 86400}}) {
        if (auto v = opts.get(name)) {
            auto n = parseInteger(*v);
            if (!n || *n < lo || *n > hi) {
                return batchUsage(fmt::format("{} takes a number from {} to {}", name, lo, hi));
            }
            *target = static_cast<int>(*n);
        }
    }
    if (auto v = opts.get("--memory-mb")) {
        auto n = parseInteger(*v);
        if (!n || *n < 256 || *n > 1 << 20) {
            return batchUsage("--memory-mb takes a number from 256 to 1048576");
        }
        o.memoryMegabytes = static_cast<long>(*n);
    }
    if (auto s = opts.get("--steps")) {
        auto steps = batch::parseSteps(*s);
        if (!steps) {
            return batchUsage(steps.error().message);
        }
        o.steps = *steps;
    }
    if (auto s = opts.get("--shard")) {
        auto shard = batch::parseShard(*s);
        if (!shard) {
            return batchUsage(shard.error().message);
        }
        o.shard = *shard;
    }
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    auto summary = batch::runBatch(
        o,
        [](const batch::BatchProgress& p) {
            std::fprintf(stderr, "[%zu/%zu] %zu failed%s\n", p.done, p.total, p.failed, rateText(p).c_str());
        },
        [] { return g_interrupted.load(); });
    if (!summary) {
        return fail(summary.error());
    }
    const auto& s = *summary;
    const double overheadMs = s.ran == 0 ? 0.0 : 1000.0 * (s.seconds * o.jobs - s.workSeconds) / s.ran;
    std::printf("%zu task folders: %zu ran (%zu with a failed step), %zu up to date, %zu in other shards; %.1f s, "
                "%.0f ms overhead per task beyond its steps\nresults: %s\n",
                s.found, s.ran, s.failed, s.upToDate, s.otherShards, s.seconds, overheadMs,
                shown(o.resultsPath).c_str());
    if (s.interrupted) {
        std::fprintf(stderr, "interrupted: the tasks that ended are recorded; run the same command to go on\n");
        return 130;
    }
    return 0;
}

int runMerge(const CommandLine& opts) {
    const auto out = opts.get("--output");
    if (!out || opts.positional.empty()) {
        return batchUsage("give results files and -o ALL.db");
    }
    auto n = batch::mergeResults(opts.positional, *out);
    if (!n) {
        return fail(n.error());
    }
    std::printf("merged %zu files: %zu tasks in %s\n", opts.positional.size(), *n, shown(*out).c_str());
    return 0;
}

int runExport(const CommandLine& opts) {
    if (opts.positional.size() != 1 || (!opts.get("--csv") && !opts.get("--jsonl"))) {
        return batchUsage("give one results file and --csv OUT or --jsonl OUT");
    }
    if (!std::filesystem::exists(opts.positional[0])) {
        return fail(Error{ErrorCode::NotFound, "no such results file", opts.positional[0], 0, {}});
    }
    auto results = batch::BatchResults::open(opts.positional[0]);
    if (!results) {
        return fail(results.error());
    }
    auto rows = results->all();
    if (!rows) {
        return fail(rows.error());
    }
    if (auto csv = opts.get("--csv")) {
        if (auto ok = writeText(*csv, batch::resultsCsv(*rows), "CSV"); !ok) {
            return fail(ok.error());
        }
    }
    if (auto jsonl = opts.get("--jsonl")) {
        if (auto ok = writeText(*jsonl, batch::resultsJsonLines(*rows), "JSON Lines"); !ok) {
            return fail(ok.error());
        }
    }
    return 0;
}

int runPlan(const CommandLine& opts) {
    if (opts.positional.size() != 1) {
        return batchUsage("give one folder or manifest");
    }
    std::filesystem::path root;
    auto tasks = batch::discoverTasks(opts.positional[0], root);
    if (!tasks) {
        return fail(tasks.error());
    }
    std::optional<std::pair<std::uint32_t, std::uint32_t>> shard;
    if (auto s = opts.get("--shard")) {
        auto parsed = batch::parseShard(*s);
        if (!parsed) {
            return batchUsage(parsed.error().message);
        }
        shard = *parsed;
    }
    for (const batch::BatchTask& t : *tasks) {
        if (!shard || batch::shardOf(t.key, shard->second) == shard->first) {
            std::printf("%s\n", shown(t.key).c_str());
        }
    }
    return 0;
}

int runReview(const CommandLine& opts) {
    const auto out = opts.get("--output");
    const std::string status = opts.get("--status").value_or("all");
    if (opts.positional.size() != 1 || !out || (status != "all" && status != "failed" && status != "ok")) {
        return batchUsage("give one results file, -o REVIEW.klreview and --status all, failed or ok");
    }
    const std::string rubricPath = core::RubricLoader::defaultRubricPath();
    auto rubric = core::readTextFile(rubricPath);
    if (!rubric) {
        return fail(rubric.error());
    }
    auto made = batch::createReviewFromResults(
        opts.positional[0], *out, {*rubric, "nki-migration.json", opts.get("--reviewer").value_or(""), status});
    if (!made) {
        return fail(made.error());
    }
    std::printf("created %s: %zu tasks in triage order\n", shown(*out).c_str(), made->tasks);
    for (const std::string& m : made->missing) {
        std::fprintf(stderr, "left out (folder gone): %s\n", shown(m).c_str());
    }
    return 0;
}

int runTask(const CommandLine& opts) {
    // A worker outlives nothing: when the batch dies (SIGKILL, power loss), its workers end with it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const auto result = opts.get("--result");
    if (opts.positional.size() != 1 || !result) {
        return batchUsage("internal: batch task FOLDER --result FILE --steps LIST");
    }
    auto steps = batch::parseSteps(opts.get("--steps").value_or("trace,simulate,findings"));
    const auto timeout = parseInteger(opts.get("--trace-timeout").value_or("300"));
    if (!steps || !timeout) {
        return batchUsage("bad --steps or --trace-timeout");
    }
    auto ok = batch::runWorker(opts.positional[0], *steps, opts.get("--hw").value_or(""), static_cast<int>(*timeout),
                               opts.has("--no-sandbox"), *result);
    return ok ? 0 : fail(ok.error());
}

/// The named subcommands; anything else is a folder or manifest to run.
constexpr std::pair<std::string_view, int (*)(const CommandLine&)> kSubcommands[] = {
    {"merge", runMerge}, {"export", runExport}, {"plan", runPlan}, {"task", runTask}, {"review", runReview},
};

} // namespace

int runBatchCommand(const std::vector<std::string>& args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::fputs(kBatchUsage, args.empty() ? stderr : stdout);
        return args.empty() ? kExitUsage : 0;
    }
    const auto* named = std::ranges::find_if(kSubcommands, [&](const auto& s) { return s.first == args[0]; });
    const bool isNamed = named != std::end(kSubcommands);
    std::vector<std::string> spelled(args.begin() + (isNamed ? 1 : 0), args.end());
    std::ranges::replace(spelled, std::string("-o"), std::string("--output"));
    auto opts =
        parseCommandLine(spelled, {{"--out", "--output", "-j", "--steps", "--hw", "--shard", "--timeout", "--memory-mb",
                                    "--csv", "--jsonl", "--result", "--trace-timeout", "--status", "--reviewer"},
                                   {"--no-sandbox"},
                                   /*closed=*/true});
    if (!opts) {
        return batchUsage(opts.error().message);
    }
    return isNamed ? named->second(*opts) : runRun(*opts);
}

} // namespace kl::app
