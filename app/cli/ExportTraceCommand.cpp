// `kernellens-cli export-trace`: a simulated run as Chrome trace event JSON (Perfetto, chrome://tracing).
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TraceArguments.h"

#include "hw/HardwareChoice.h"
#include "ir/IrLoader.h"
#include "report/ChromeTrace.h"
#include "run/RunPipeline.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>

namespace kl::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kExportTraceUsage =
    R"(Usage: kernellens-cli export-trace (TASK_DIR | KERNEL.py [trace options] | --ir IR_FILE)
                                   [--hw NAME|PROFILE.json] [--no-flows] [--no-counters] -o TRACE.json

Simulates the kernel and writes the run as Chrome trace event JSON, for Perfetto (ui.perfetto.dev) or
chrome://tracing: engines and DMA queues as tracks, one slice per instruction (args: source line, wait
cause, instruction waited on), dependency arrows, SBUF/PSUM occupancy and DMA bandwidth counters.
The output is deterministic: the same kernel and profile give the same bytes.

Options:
  --ir FILE                a Kernel IR file written by `kernellens-cli trace` (no tracing)
  --kernel NAME            kernel function (default: the task's, or the file's only kernel)
  --arg NAME=SHAPE:DTYPE   a tensor argument (repeat, in call order)
  --scalar NAME=VALUE      a non-tensor keyword argument (repeatable)
  --grid N | AxB           SPMD launch grid
  --package-root DIR       the folder the kernel's package imports resolve from (a kernel inside a package)
  --no-sandbox             run the kernel even where the OS sandbox cannot be set up (docs/sandbox.md)
  --hw NAME|FILE           hardware profile (default: the task's, else by the kernel's NKI API as
                           `simulate` chooses; see `kernellens-cli simulate --help`)
  --no-flows               leave out dependency arrows
  --no-counters            leave out occupancy and DMA counters
  -o, --output FILE        where the trace goes ('-' for stdout)
)";

} // namespace

int runExportTraceCommand(const std::vector<std::string>& args) {
    if (printHelpIfAsked(args, kExportTraceUsage)) {
        return 0;
    }
    auto line = parseCommandLine(args, {{"--ir", "--hw"}, {"--no-flows", "--no-counters"}});
    if (!line) {
        return usageError(line.error(), kExportTraceUsage);
    }
    const std::optional<std::string> ir = line->get("--ir");
    const std::optional<std::string> hardware = line->get("--hw");
    core::report::ChromeTrace::Options traceOptions;
    traceOptions.flows = !line->has("--no-flows");
    traceOptions.counters = !line->has("--no-counters");
    auto parsed = parseTraceArguments(line->positional, /*requireOutput=*/false);
    if (!parsed) {
        return usageError(parsed.error(), kExportTraceUsage);
    }
    if (!parsed->rest.empty() || parsed->request.output.empty()) {
        return usageError(Error{ErrorCode::InvalidArgument,
                                !parsed->rest.empty() ? fmt::format("unknown option '{}'", parsed->rest.front())
                                                      : std::string("export-trace needs -o TRACE.json")},
                          kExportTraceUsage);
    }
    const core::TraceRequest& request = parsed->request;
    const bool hasInput = !request.taskDir.empty() || !request.kernelFile.empty();
    if (ir.has_value() == hasInput) {
        return usageError(
            Error{ErrorCode::InvalidArgument, "give exactly one of --ir IR_FILE, a task folder or a kernel file"},
            kExportTraceUsage);
    }
    std::shared_ptr<const sim::SimResult> result;
    sim::HardwareChoice choice;
    if (ir) {
        auto loaded = sim::IrLoader::loadFile(*ir);
        if (!loaded) {
            return fail(loaded.error(), 1);
        }
        choice = sim::chooseHardware(hardware.value_or(""), {}, sim::kernelApiOf(loaded->api));
        auto simulated = core::simulate(*loaded, choice.spec);
        if (!simulated) {
            return fail(simulated.error(), 1);
        }
        result = *simulated;
    } else {
        core::RunRequest run;
        run.trace = request;
        run.hardware = hardware.value_or(""); // empty: the task's, else by the kernel's API
        auto outcome = core::traceAndSimulate(run);
        if (!outcome) {
            return fail(outcome.error(), 1);
        }
        if (!outcome->warnings.empty()) {
            std::fputs(outcome->warnings.c_str(), stderr);
        }
        result = outcome->result;
        choice = outcome->hardware;
    }
    const std::string text = core::report::ChromeTrace::write(*result, traceOptions);
    const std::string out = request.output.string();
    if (auto written = writeText(out, text, "the trace"); !written) {
        return fail(written.error(), 1);
    }
    if (out == "-") {
        return 0;
    }
    std::fprintf(stderr, "wrote %s: %zu instructions, %.3f us simulated on %s\n", out.c_str(), result->timeline.size(),
                 static_cast<double>(result->summary.totalPs) / 1e6, choice.describe().c_str());
    return 0;
}

} // namespace kl::app
