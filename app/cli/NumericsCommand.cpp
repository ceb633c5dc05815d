// `kernellens-cli numerics`: run a kernel on real values (sandboxed front end, value mode) and compare its outputs
// with the exact reference and the emulated CUDA kernel; print the comparison table, optionally write the document
// and keep the run in a review file.
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TraceArguments.h"

#include "numerics/NumericsReader.h"
#include "numerics/NumericsTable.h"
#include "review/ReviewFile.h"
#include "support/AtomicFile.h"
#include "support/Subprocess.h"
#include "support/Try.h"
#include "task/TaskSpec.h"
#include "trace/TraceRunner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <type_traits>

namespace kl::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kNumericsUsage =
    R"(Usage: kernellens-cli numerics (TASK_DIR | KERNEL.py [trace options] | --from-json FILE)
                               [--reference FILE.py:FUNC] [--cuda-numerics POLICY]
                               [--inputs normal|uniform|bf16-stress|fp8-stress|outliers|FILE.npy|FILE.npz]
                               [--seed N] [--tolerance NAME] [--rtol X] [--atol Y]
                               [--json OUT] [--review FILE.klreview [--task ID]]

Runs the kernel on real input values with Trainium arithmetic (every write rounded to its dtype, matmuls
accumulated in FP32 PSUM in issue order), compares each output with the exact float64 reference and with the
CUDA kernel's emulated accumulation, and prints per output and comparison: max abs / rel / ULP error, RMS,
mismatches, pass/fail and the tolerance, then the instructions that added most rounding error (file:line).
The kernel runs in the same sandbox as `trace`. Exit code: 0 all comparisons pass, 1 one fails, 2 error.

Options (each overrides the task.json field of the same meaning):
  --reference FILE:FUNC    the reference function (numpy, float64), e.g. reference.py:matmul_ref
  --cuda-numerics POLICY   fp32-k-order | tensor-core-bf16[:K_STEP] | split-k:S | fp16-accumulate | none
  --inputs KIND|FILE       seeded random inputs by distribution, or arrays from .npy/.npz (one per argument)
  --seed N                 random seed (default 0; the same seed gives the same bits)
  --tolerance NAME         a standard of resources/numerics/tolerances.json (default "default")
  --rtol X, --atol Y       override the standard's tolerances
  --json OUT               write the numerics document (docs/numerics-json.md); '-' for stdout
  --review FILE            keep the run in a review file (the task named by TASK_DIR's folder, added when
                           missing, or --task ID)
  --task ID                the review task the run belongs to
  --from-json FILE         read a numerics document written earlier instead of running the kernel
Trace options: --kernel NAME, --arg NAME=SHAPE:DTYPE, --scalar NAME=VALUE, --grid N, --package-root DIR,
  --timeout SECONDS, --no-sandbox (see `kernellens-cli trace --help`).
)";

struct NumericsCliOptions {
    core::NumericsOptions numerics;
    std::optional<std::string> json;
    std::optional<std::string> review;
    std::optional<long long> task;
    std::optional<std::string> fromJson;
    core::TraceRequest request; ///< the kernel to run, from the trace options; empty with --from-json
};

template <typename T> Expected<T> parseNumber(const std::string& flag, const std::string& v) {
    try {
        std::size_t used = 0;
        T n{};
        if constexpr (std::is_floating_point_v<T>) {
            n = std::stod(v, &used);
        } else {
            n = std::stoll(v, &used);
        }
        if (used == v.size()) {
            return n;
        }
    } catch (...) {
    }
    return makeError(
        ErrorCode::InvalidArgument,
        fmt::format("{} needs {}, not '{}'", flag, std::is_floating_point_v<T> ? "a number" : "a whole number", v));
}

/// Takes out the flags `numerics` adds to the trace flags; the rest go to parseTraceArguments.
Expected<NumericsCliOptions> splitOptions(const std::vector<std::string>& args) {
    auto line = parseCommandLine(args, {{"--reference", "--cuda-numerics", "--inputs", "--seed", "--tolerance",
                                         "--rtol", "--atol", "--json", "--review", "--task", "--from-json"}});
    KL_TRY(line);
    NumericsCliOptions o{
        .json = line->get("--json"), .review = line->get("--review"), .fromJson = line->get("--from-json")};
    auto& n = o.numerics;
    n.enabled = true;
    n.reference = line->get("--reference").value_or("");
    n.cudaNumerics = line->get("--cuda-numerics").value_or("");
    n.inputs = line->get("--inputs").value_or("");
    n.tolerance = line->get("--tolerance").value_or("");
    for (const auto& [flag, target] : {std::pair{"--seed", &n.seed}, std::pair{"--task", &o.task}}) {
        if (auto v = line->get(flag)) {
            auto value = parseNumber<long long>(flag, *v);
            if (!value || *value < 0) {
                return makeError(ErrorCode::InvalidArgument, std::string(flag) + " needs a non-negative whole number");
            }
            *target = *value;
        }
    }
    for (const auto& [flag, target] : {std::pair{"--rtol", &n.rtol}, std::pair{"--atol", &n.atol}}) {
        if (auto v = line->get(flag)) {
            auto value = parseNumber<double>(flag, *v);
            if (!value || !(*value >= 0) || *value > 1e6) {
                return makeError(ErrorCode::InvalidArgument, std::string(flag) + " needs a number from 0 to 1e6");
            }
            *target = *value;
        }
    }
    auto parsed = parseTraceArguments(line->positional, /*requireOutput=*/false);
    KL_TRY(parsed);
    if (!parsed->rest.empty()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("unknown option '{}'", parsed->rest.front()));
    }
    o.request = std::move(parsed->request);
    const bool hasInput = !o.request.taskDir.empty() || !o.request.kernelFile.empty();
    if (hasInput == o.fromJson.has_value()) {
        return makeError(ErrorCode::InvalidArgument,
                         "give a task folder or a kernel file to run, or --from-json FILE (one of them)");
    }
    return o;
}

/// The document text: read from --from-json, or written by the front end in value mode.
Expected<std::string> obtainDocument(const NumericsCliOptions& o, const core::TraceRequest& request) {
    if (o.fromJson) {
        return core::readTextFile(*o.fromJson);
    }
    core::TemporaryDirectory scratch;
    if (!scratch.valid()) {
        return makeError(ErrorCode::Io, "cannot create a temporary folder for the numerics document");
    }
    core::TraceRequest run = request;
    run.numerics = o.numerics;
    run.output = scratch.path() / "numerics.json";
    auto outcome = core::runTrace(run);
    KL_TRY(outcome);
    if (!outcome->warnings.empty()) {
        printText(stderr, outcome->warnings);
    }
    return core::readTextFile(outcome->irFile);
}

/// The review task a run belongs to: --task, else the task whose folder key is TASK_DIR's name (added when missing).
Expected<std::int64_t> reviewTask(core::ReviewFile& file, const NumericsCliOptions& o, const core::TraceRequest& r) {
    if (o.task) {
        auto task = file.tasks().get(*o.task);
        KL_TRY(task);
        return task->id;
    }
    if (r.taskDir.empty()) {
        return makeError(ErrorCode::InvalidArgument, "--review needs a task folder or --task ID");
    }
    fs::path dir = fs::weakly_canonical(r.taskDir);
    if (dir.filename().empty()) { // "examples/softmax/"
        dir = dir.parent_path();
    }
    const std::string key = dir.filename().string();
    auto tasks = file.tasks().list();
    KL_TRY(tasks);
    for (const core::Task& t : *tasks) {
        if (t.folder == key) {
            return t.id;
        }
    }
    auto added = file.tasks().addFromFolder(r.taskDir.string());
    KL_TRY(added);
    std::fprintf(stderr, "added task %lld to the review\n", static_cast<long long>(added->id));
    return added->id;
}

Expected<void> storeInReview(const NumericsCliOptions& o, const core::TraceRequest& request, const std::string& doc) {
    auto file = core::ReviewFile::open(*o.review);
    KL_TRY(file);
    auto task = reviewTask(*file, o, request);
    KL_TRY(task);
    auto stored = file->numericsRuns().add(*task, doc);
    KL_TRY(stored);
    std::fprintf(stderr, "stored numerics run %lld for task %lld in %s\n", static_cast<long long>(stored->id),
                 static_cast<long long>(*task), o.review->c_str());
    return {};
}

int runNumerics(const NumericsCliOptions& o) {
    const core::TraceRequest& request = o.request;
    auto text = obtainDocument(o, request);
    if (!text) {
        return fail(text.error(), 2);
    }
    auto result = core::parseNumericsDocument(*text, o.fromJson.value_or("the front end's numerics output"));
    if (!result) {
        return fail(result.error(), 2);
    }
    if (o.json) {
        auto written = *o.json == "-" ? writeText("-", *text)
                                      : core::writeFileAtomically(*o.json, *text, false, "the numerics document");
        if (!written) {
            return fail(written.error(), 2);
        }
    }
    if (o.review) {
        if (auto stored = storeInReview(o, request, *text); !stored) {
            return fail(stored.error(), 2);
        }
    }
    printText(o.json == "-" ? stderr : stdout, core::renderNumericsTable(*result));
    return result->passed() ? 0 : 1;
}

} // namespace

int runNumericsCommand(const std::vector<std::string>& args) {
    return runParsed(args, kNumericsUsage, splitOptions, runNumerics);
}

} // namespace kl::app
