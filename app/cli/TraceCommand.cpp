// `kernellens-cli trace`: run a kernel through the NKI front end and write its Kernel IR.
#include "cli/Commands.h"
#include "cli/TraceArguments.h"

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

} // namespace

int runTraceCommand(const std::vector<std::string>& args) {
    auto parsed = parseTraceArguments(args, /*requireOutput=*/true);
    if (!parsed) {
        if (parsed.error().code == ErrorCode::Cancelled) { // --help
            std::fputs(kTraceUsage, stdout);
            return 0;
        }
        std::fprintf(stderr, "%s\n\n%s", formatError(parsed.error()).c_str(), kTraceUsage);
        return 2;
    }
    core::TraceRequest request = parsed->request;
    request.irFormat = core::IrFormat::Json;
    for (std::size_t i = 0; i < parsed->rest.size(); ++i) {
        const std::string& flag = parsed->rest[i];
        const bool known = flag == "--format" && i + 1 < parsed->rest.size() &&
                           (parsed->rest[i + 1] == "json" || parsed->rest[i + 1] == "binary");
        if (!known) {
            std::fprintf(stderr, "kernellens-cli trace: %s\n\n%s",
                         flag == "--format" ? "--format takes json or binary" : ("unknown option " + flag).c_str(),
                         kTraceUsage);
            return 2;
        }
        request.irFormat = parsed->rest[++i] == "binary" ? core::IrFormat::Binary : core::IrFormat::Json;
    }
    auto outcome = core::runTrace(request);
    if (!outcome) {
        std::fprintf(stderr, "%s\n", formatError(outcome.error()).c_str());
        return 1;
    }
    if (!outcome->warnings.empty()) {
        std::fputs(outcome->warnings.c_str(), stderr);
    }
    std::fprintf(stderr, "wrote %s\n", outcome->irFile.string().c_str());
    return 0;
}

} // namespace kl::app
