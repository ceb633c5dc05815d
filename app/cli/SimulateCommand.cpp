// `kernellens-cli simulate`: simulate a kernel (traced now, or an IR file) on a NeuronCore profile.
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TraceArguments.h"

#include "engine/Simulator.h"
#include "hw/HardwareChoice.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "ir/IrLoader.h"
#include "output/ResultJson.h"
#include "output/TextReport.h"
#include "support/Try.h"
#include "task/TaskSpec.h"
#include "trace/TraceRunner.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <filesystem>
#include <optional>
#include <unistd.h>

namespace kl::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kSimulateUsage =
    R"(Usage: kernellens-cli simulate (--ir IR_FILE | TASK_DIR | KERNEL.py [trace options])
                               [--hw NAME|PROFILE.json] [--json OUT] [--timeline N]

Simulates the kernel on one NeuronCore and prints a summary (time, engine activity, DMA, SBUF/PSUM, wait causes).
The summary's Hardware line names the profile and why it was chosen.

Options:
  --ir FILE                a Kernel IR file written by `kernellens-cli trace` (no tracing)
  --kernel NAME            kernel function (default: the task's, or the file's only kernel)
  --arg NAME=SHAPE:DTYPE   a tensor argument, e.g. --arg a=4096x8192:bfloat16 (repeat, in call order)
  --scalar NAME=VALUE      a non-tensor keyword argument (repeatable)
  --grid N | AxB           SPMD launch grid
  --lnc 1|2                logical NeuronCore degree: 2 runs the programs on two cores (trn2, trn3)
  --package-root DIR       the folder the kernel's package imports resolve from (a kernel inside a package)
  --timeout SECONDS        stop a kernel that traces longer (default 120)
  --hw NAME|FILE           hardware profile: {profiles}, or a profile .json (default: the task's
                           "hardware", else {nki} for nki.* kernels and {legacy} for legacy neuronxcc.nki kernels)
  --json FILE              also write the result as JSON (schema: docs/simulator.md); '-' for stdout
  --timeline N             print a text timeline of the first N instructions
)";

struct SimulateOptions {
    std::optional<std::string> ir;
    std::string hardware; ///< --hw; empty: the task's, else the default for the kernel's NKI API
    std::optional<std::string> json;
    std::size_t timeline = 0;
    std::vector<std::string> traceArgs;
};

/// Takes out the flags `simulate` adds to the trace flags; the rest go to parseTraceArguments.
Expected<SimulateOptions> splitOptions(const std::vector<std::string>& args) {
    auto line = parseCommandLine(args, {{"--ir", "--hw", "--json", "--timeline"}});
    KL_TRY(line);
    SimulateOptions o{line->get("--ir"), line->get("--hw").value_or(""), line->get("--json"), 0,
                      std::move(line->positional)};
    if (auto timeline = line->get("--timeline")) {
        auto n = parseCount("--timeline", *timeline);
        KL_TRY(n);
        o.timeline = *n;
    }
    return o;
}

/// The usage text with the bundled profile names filled in.
std::string usage() {
    return fmt::format(fmt::runtime(kSimulateUsage), fmt::arg("profiles", sim::bundledProfileList()),
                       fmt::arg("nki", sim::defaultProfileFor(sim::KernelApi::Nki)),
                       fmt::arg("legacy", sim::defaultProfileFor(sim::KernelApi::Legacy)));
}

/// The kernel to simulate, and the profile its task folder asks for (resolved; empty when none).
struct LoadedKernel {
    sim::KernelIr ir;
    std::string taskHardware;
};

/// With KL_TIMING_LOG=1, `simulate` prints on stderr how long each phase took, for the benchmarks in
/// docs/simulator.md: "kernellens-cli: trace 2105 ms, load 31 ms (10.9 MB), simulate 48 ms".
struct PhaseTimes {
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now();
    double traceMs = 0;
    double loadMs = 0;
    std::uint64_t irBytes = 0;
    [[nodiscard]] double sinceStartMs() const {
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    }
};

bool timingLog() {
    const char* v = std::getenv("KL_TIMING_LOG");
    return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

/// The IR from --ir, or from tracing the task folder / kernel file with the front end.
Expected<LoadedKernel> loadOrTrace(const SimulateOptions& o, PhaseTimes& times) {
    auto parsed = parseTraceArguments(o.traceArgs, /*requireOutput=*/false);
    KL_TRY(parsed);
    if (!parsed->rest.empty()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("unknown option '{}'", parsed->rest.front()));
    }
    const core::TraceRequest& request = parsed->request;
    const bool hasInput = !request.taskDir.empty() || !request.kernelFile.empty();
    if (o.ir) {
        if (hasInput) {
            return makeError(ErrorCode::InvalidArgument,
                             "give either --ir IR_FILE or a task folder / kernel file, not both");
        }
        std::error_code sizeError;
        times.irBytes = fs::file_size(*o.ir, sizeError);
        auto ir = sim::IrLoader::loadFile(*o.ir);
        times.loadMs = times.sinceStartMs();
        KL_TRY(ir);
        if (!request.lnc.empty()) { // the programs split by their first program id (docs/simulator.md)
            ir->lnc = request.lnc == "2" ? 2 : 1;
        }
        return LoadedKernel{std::move(*ir), {}};
    }
    if (!hasInput) {
        return makeError(ErrorCode::InvalidArgument,
                         "nothing to simulate: give --ir IR_FILE, a task folder or a kernel file");
    }
    // Trace into a private temporary file, removed once loaded.
    core::TraceRequest trace = request;
    if (!o.hardware.empty()) { // the front end checks tile sizes against the profile the run uses
        if (auto path = sim::ProfileLocator::resolve(o.hardware, resourceBases())) {
            trace.hardware = fs::absolute(*path).string();
        }
    }
    const fs::path scratch = fs::temp_directory_path() / fmt::format("kernellens-simulate-{}.ir.json", ::getpid());
    trace.output = scratch;
    auto outcome = core::runTrace(trace);
    KL_TRY(outcome);
    if (!outcome->warnings.empty()) {
        printText(stderr, outcome->warnings);
    }
    times.traceMs = times.sinceStartMs();
    std::error_code sizeError;
    times.irBytes = fs::file_size(outcome->irFile, sizeError);
    auto ir = sim::IrLoader::loadFile(outcome->irFile);
    times.loadMs = times.sinceStartMs() - times.traceMs;
    std::error_code ec;
    fs::remove(outcome->irFile, ec);
    KL_TRY(ir);
    LoadedKernel loaded{std::move(*ir), {}};
    if (!request.taskDir.empty()) {
        if (auto spec = core::loadTaskSpec(request.taskDir)) { // it traced, so it loads
            loaded.taskHardware = spec->hardwareSpec();
        }
    }
    return loaded;
}

/// Resolves a profile name or path and reads it.
Expected<sim::HardwareProfile> loadProfile(const std::string& spec) {
    auto path = sim::ProfileLocator::resolve(spec, resourceBases());
    KL_TRY(path);
    return sim::HardwareProfile::loadFile(*path);
}

int runSimulate(const SimulateOptions& o) {
    // An explicit --hw is checked before tracing: a typo should not cost a trace.
    std::optional<Expected<sim::HardwareProfile>> profile;
    if (!o.hardware.empty()) {
        profile = loadProfile(o.hardware);
        if (!*profile) {
            return fail(profile->error(), profile->error().code == ErrorCode::NotFound ? 2 : 1);
        }
    }
    PhaseTimes times;
    auto kernel = loadOrTrace(o, times);
    if (!kernel) {
        return fail(kernel.error(), kernel.error().code == ErrorCode::InvalidArgument ? 2 : 1);
    }
    const sim::HardwareChoice choice =
        sim::chooseHardware(o.hardware, kernel->taskHardware, sim::kernelApiOf(kernel->ir.api));
    if (!profile) {
        profile = loadProfile(choice.spec);
        if (!*profile) {
            return fail(profile->error(), 1);
        }
    }
    const double simulateFrom = times.sinceStartMs();
    auto result = sim::Simulator::run(kernel->ir, **profile);
    if (!result) {
        return fail(result.error(), 1);
    }
    if (timingLog()) {
        std::fprintf(stderr,
                     "kernellens-cli: trace %.0f ms, load %.0f ms (%.1f MB, %zu instructions), simulate %.0f ms\n",
                     times.traceMs, times.loadMs, static_cast<double>(times.irBytes) / 1e6,
                     kernel->ir.instructions().size(), times.sinceStartMs() - simulateFrom);
    }
    const sim::SimResult& r = **result;
    const bool jsonToStdout = o.json && *o.json == "-";
    // With JSON on stdout the human-readable text goes to stderr so the JSON stays parseable.
    std::FILE* text = jsonToStdout ? stderr : stdout;
    printText(text, sim::TextReport::summary(r, choice.describe())); // names and diagnostics come from the IR
    if (o.timeline > 0) {
        std::fputs("\n", text);
        printText(text, sim::TextReport::timeline(r, o.timeline));
    }
    if (o.json) {
        if (auto ok = writeText(*o.json, sim::ResultJson::write(r)); !ok) {
            return fail(ok.error(), 1);
        }
    }
    return 0;
}

} // namespace

int runSimulateCommand(const std::vector<std::string>& args) {
    return runParsed(args, usage(), splitOptions, runSimulate);
}

} // namespace kl::app
