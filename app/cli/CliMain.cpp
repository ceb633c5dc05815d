// kernellens-cli's command line: the usage, the version and the dispatch to each subcommand. Both executables
// (kernellens-cli and its Qt half, kernellens-cli-qt) run it.
#include "cli/Commands.h"

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kUsage = R"(Usage: kernellens-cli COMMAND [ARGS...]

Review, optimize and teach NKI kernels on a simulated NeuronCore.

Commands:
  trace      Run an NKI kernel in the front end and write its Kernel IR
  simulate   Simulate a kernel (or an IR file) on a NeuronCore profile and print a summary
  review     Create and edit review files (.klreview): tasks, annotations, scores
  report     Write an annotated report of a review: HTML, PDF, Markdown, JSON or CSV
  export-trace  Write a simulated run as Chrome trace JSON (Perfetto, chrome://tracing)
  compat     Trace and simulate many kernels (a manifest, task folders, files) and tabulate which run
  findings   Run the findings rules over a simulated kernel: bottlenecks and migration issues, with evidence
  batch      Trace, simulate and check thousands of task folders, resumably, on one machine or a cluster
  numerics   Run a kernel on real values and compare it with the exact reference and the CUDA kernel

Options:
  -h, --help     Show this help, or a command's help with `kernellens-cli COMMAND --help`
  -V, --version  Show the version

Examples:
  kernellens-cli trace examples/vector_add_legacy -o /tmp/vadd.ir.json
  kernellens-cli simulate examples/matmul_basic_tiled --hw trn1 --timeline 20
  kernellens-cli report review.klreview --format html -o report.html
  kernellens-cli export-trace examples/matmul_basic_tiled -o trace.json
  kernellens-cli compat examples --json compat.json
  kernellens-cli numerics examples/matmul_basic_tiled --inputs normal --seed 1 --json numerics.json
)";

/// Every command, by the name typed after kernellens-cli.
struct Command {
    std::string_view name;
    int (*run)(const std::vector<std::string>& args);
};
constexpr Command kCommands[] = {
    {"trace", kl::app::runTraceCommand},
    {"simulate", kl::app::runSimulateCommand},
    {"review", kl::app::runReviewCommand},
    {"report", kl::app::runReportCommand},
    {"export-trace", kl::app::runExportTraceCommand},
    {"compat", kl::app::runCompatCommand},
    {"findings", kl::app::runFindingsCommand},
    {"batch", kl::app::runBatchCommand},
    {"numerics", kl::app::runNumericsCommand},
};

int dispatch(std::string_view command, const std::vector<std::string>& rest) {
    for (const Command& c : kCommands) {
        if (c.name == command) {
            return c.run(rest);
        }
    }
    std::fprintf(stderr, "kernellens-cli: unknown command '%.*s'\nRun 'kernellens-cli --help' for the list.\n",
                 static_cast<int>(command.size()), command.data());
    return 2;
}

} // namespace

namespace kl::app {

int runCommandLine(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    const std::string_view first = argv[1];
    if (first == "-h" || first == "--help" || first == "help") {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (first == "-V" || first == "--version") {
        std::printf("kernellens-cli %s\n", KL_VERSION);
        return 0;
    }
    const std::vector<std::string> rest(argv + 2, argv + argc);
    // No exception may escape main: a bug still gets a message instead of an abort.
    try {
        return dispatch(first, rest);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernellens-cli: internal error: %s\nPlease report this with the command you ran.\n",
                     e.what());
        return 70;
    }
}

} // namespace kl::app
