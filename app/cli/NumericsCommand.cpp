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
    std::vector<std::string> traceArgs;
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

Expected<void> takeOption(NumericsCliOptions& o, const std::string& flag, const std::string& v) {
    auto& n = o.numerics;
    if (flag == "--reference") {
        n.reference = v;
    } else if (flag == "--cuda-numerics") {
        n.cudaNumerics = v;
    } else if (flag == "--inputs") {
        n.inputs = v;
    } else if (flag == "--tolerance") {
        n.tolerance = v;
    } else if (flag == "--json") {
        o.json = v;
    } else if (flag == "--review") {
        o.review = v;
    } else if (flag == "--from-json") {
        o.fromJson = v;
    } else if (flag == "--seed" || flag == "--task") {
        auto value = parseNumber<long long>(flag, v);
        if (!value || *value < 0) {
            return makeError(ErrorCode::InvalidArgument, flag + " needs a non-negative whole number");
        }
        (flag == "--seed" ? n.seed : o.task) = *value;
    } else {
        auto value = parseNumber<double>(flag, v);
        if (!value || !(*value >= 0) || *value > 1e6) {
            return makeError(ErrorCode::InvalidArgument, flag + " needs a number from 0 to 1e6");
        }
        (flag == "--rtol" ? n.rtol : n.atol) = *value;
    }
    return {};
}

/// Takes out the flags `numerics` adds to the trace flags; the rest go to parseTraceArguments.
Expected<NumericsCliOptions> splitOptions(const std::vector<std::string>& args) {
    NumericsCliOptions o;
    o.numerics.enabled = true;
    auto rest = takeOptions(args,
                            {"--reference", "--cuda-numerics", "--inputs", "--seed", "--tolerance", "--rtol", "--atol",
                             "--json", "--review", "--task", "--from-json"},
                            [&](const std::string& flag, const std::string& v) { return takeOption(o, flag, v); });
    KL_TRY(rest);
    o.traceArgs = std::move(*rest);
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

} // namespace

int runNumericsCommand(const std::vector<std::string>& args) {
    if (printHelpIfAsked(args, kNumericsUsage)) {
        return 0;
    }
    auto options = splitOptions(args);
    auto parsed = options ? parseTraceArguments(options->traceArgs, /*requireOutput=*/false)
                          : Expected<TraceArguments>(std::unexpected(options.error()));
    if (!parsed) {
        return usageError(parsed.error(), kNumericsUsage);
    }
    if (!parsed->rest.empty()) {
        return usageError(Error{ErrorCode::InvalidArgument, fmt::format("unknown option '{}'", parsed->rest.front())},
                          kNumericsUsage);
    }
    const core::TraceRequest& request = parsed->request;
    const bool hasInput = !request.taskDir.empty() || !request.kernelFile.empty();
    if (hasInput == options->fromJson.has_value()) {
        return usageError(Error{ErrorCode::InvalidArgument,
                                "give a task folder or a kernel file to run, or --from-json FILE (one of them)"},
                          kNumericsUsage);
    }
    auto text = obtainDocument(*options, request);
    if (!text) {
        return fail(text.error(), 2);
    }
    auto result = core::parseNumericsDocument(*text, options->fromJson.value_or("the front end's numerics output"));
    if (!result) {
        return fail(result.error(), 2);
    }
    if (options->json) {
        auto written = *options->json == "-"
                           ? writeText("-", *text)
                           : core::writeFileAtomically(*options->json, *text, false, "the numerics document");
        if (!written) {
            return fail(written.error(), 2);
        }
    }
    if (options->review) {
        if (auto stored = storeInReview(*options, request, *text); !stored) {
            return fail(stored.error(), 2);
        }
    }
    printText(options->json == "-" ? stderr : stdout, core::renderNumericsTable(*result));
    return result->passed() ? 0 : 1;
}

} // namespace kl::app
