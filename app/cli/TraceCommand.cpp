// `kernellens-cli trace`: run a kernel through the NKI front end and write its Kernel IR.
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TraceArguments.h"

#include "support/Try.h"
#include "trace/TraceRunner.h"

#include <fmt/format.h>

#include <cstdio>

namespace kl::app {

namespace {

constexpr const char* kTraceUsage = R"(Usage: kernellens-cli trace (TASK_DIR | KERNEL.py) [options] -o OUT.json

Runs the NKI kernel unmodified in KernelLens's NKI front end (no Neuron SDK, no Trainium) and writes the
Kernel IR (docs/kernel-ir.md).

Options:
  --kernel NAME            kernel function (default: the task's, or the file's only kernel)
  --arg NAME=SHAPE:DTYPE   a tensor argument, e.g. --arg a=4096x8192:bfloat16 (repeat, in call order)
  --scalar NAME=VALUE      a non-tensor keyword argument (repeatable)
  --grid N | AxB           SPMD launch grid
  --lnc 1|2                logical NeuronCore degree: 2 splits the programs over two cores
  --package-root DIR       the folder the kernel's package imports resolve from (a kernel inside a package)
  --timeout SECONDS        stop a kernel that runs longer (default 120)
  --no-sandbox             run the kernel even where the OS sandbox cannot be set up (docs/sandbox.md)
  --format json|binary     the IR as JSON (default; readable, an export) or in its compact binary form
                           (what KernelLens reads; docs/kernel-ir.md, "Binary form")
  -o, --output FILE        where to write the IR (required)
)";

/// trace's own --format, then the trace arguments (an output required): the request to run.
Expected<core::TraceRequest> parseRequest(const std::vector<std::string>& args) {
    auto line = parseCommandLine(args, {{"--format"}});
    KL_TRY(line);
    const std::string format = line->get("--format").value_or("json");
    if (format != "json" && format != "binary") {
        return makeError(ErrorCode::InvalidArgument, "kernellens-cli trace: --format takes json or binary");
    }
    auto parsed = parseTraceArguments(line->positional, /*requireOutput=*/true);
    KL_TRY(parsed);
    if (!parsed->rest.empty()) {
        return makeError(ErrorCode::InvalidArgument, "kernellens-cli trace: unknown option " + parsed->rest.front());
    }
    parsed->request.irFormat = format == "binary" ? core::IrFormat::Binary : core::IrFormat::Json;
    return std::move(parsed->request);
}

int runTrace(const core::TraceRequest& request) {
    auto outcome = core::runTrace(request);
    if (!outcome) {
        return fail(outcome.error(), 1);
    }
    if (!outcome->warnings.empty()) {
        std::fputs(outcome->warnings.c_str(), stderr);
    }
    std::fprintf(stderr, "wrote %s\n", outcome->irFile.string().c_str());
    return 0;
}

} // namespace

int runTraceCommand(const std::vector<std::string>& args) {
    return runParsed(args, kTraceUsage, parseRequest, runTrace);
}

} // namespace kl::app
