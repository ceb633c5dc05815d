#pragma once

#include "common/Error.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kl::core {

/// What to trace: a task folder, or a kernel file with its arguments given directly. Flags given here
/// override the task's own (as on the command line).
struct TraceRequest {
    std::filesystem::path taskDir;     ///< a task folder, or empty
    std::filesystem::path kernelFile;  ///< used when taskDir is empty
    std::string kernelName;            ///< empty: the task's kernel, or the file's only kernel
    std::vector<std::string> argSpecs; ///< NAME=4096x8192:bfloat16
    std::string grid;                  ///< "4" or "2x2", empty: the task's
    std::vector<std::string> scalars;  ///< NAME=VALUE
    std::filesystem::path packageRoot; ///< the folder the kernel's package imports resolve from, or empty
    std::filesystem::path output;      ///< where the IR JSON goes (the kernel list with listKernels)
    bool listKernels = false;          ///< list the file's kernels and their parameters instead of tracing
    int timeoutSeconds = 120;
    long memoryMegabytes = 4096;
};

struct TraceOutcome {
    std::filesystem::path irFile;
    std::string warnings; ///< what the front end printed on stderr besides the IR, for a problems panel
    bool networkIsolated = false;
};

/// Runs the Python NKI front end (sim/frontend) on a kernel in a sandboxed subprocess: its own process group,
/// CPU and memory limits, a private network namespace where the system allows one, a private temporary
/// working directory, and a hard wall-clock kill a little after the front end's own time-out so that the
/// front end can normally report the line it was stuck at. Front-end errors come back as kl::Error with the
/// kernel file and line.
[[nodiscard]] Expected<TraceOutcome> runTrace(const TraceRequest& request,
                                              const std::function<bool()>& shouldCancel = {});

/// Turns the front end's JSON error object (`{"error": {...}}`) into an Error; nullopt-like Internal error
/// when the text is not such an object.
[[nodiscard]] Error parseFrontendError(const std::string& stdoutText, const std::string& stderrText);

} // namespace kl::core
