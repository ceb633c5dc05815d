#pragma once

#include "common/Error.h"
#include "trace/NumericsOptions.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kl::core {

/// What to trace: a task folder, or a kernel file with its arguments given directly. Flags given here
/// override the task's own (as on the command line).
/// The form the front end writes the Kernel IR in (docs/kernel-ir.md): binary is what the simulator reads
/// fastest; JSON is the readable export (`kernellens-cli trace --format json`).
enum class IrFormat { Binary, Json };

struct TraceRequest {
    std::filesystem::path taskDir;     ///< a task folder, or empty
    std::filesystem::path kernelFile;  ///< used when taskDir is empty
    std::string kernelName;            ///< empty: the task's kernel, or the file's only kernel
    std::vector<std::string> argSpecs; ///< NAME=4096x8192:bfloat16
    std::string grid;                  ///< "4" or "2x2", empty: the task's
    std::string lnc;                   ///< "1" or "2" (logical NeuronCore degree), empty: the task's
    std::vector<std::string> scalars;  ///< NAME=VALUE
    std::filesystem::path packageRoot; ///< the folder the kernel's package imports resolve from, or empty
    /// The hardware profile whose on-chip sizes the front end checks tiles against (`--hw`: a bundled name or a
    /// profile's .json path); empty: the front end's default (sim/frontend/kltrace/hwprofile.py).
    std::string hardware;
    std::filesystem::path output; ///< where the IR goes (the kernel list with listKernels, the numerics
                                  ///< document with numerics.enabled)
    IrFormat irFormat = IrFormat::Binary;
    bool listKernels = false; ///< list the file's kernels and their parameters instead of tracing
    /// Value execution (issue 15): same sandbox, nonce channel, time-out and limits; the output is the numerics
    /// JSON document (docs/numerics-json.md) instead of the IR.
    NumericsOptions numerics;
    int timeoutSeconds = 120;
    long memoryMegabytes = 4096;
    long outputMegabytes = 1024; ///< largest file the front end may write (RLIMIT_FSIZE)
    /// When the OS sandbox cannot be set up on this machine, run the kernel without it instead of failing with
    /// ErrorCode::SandboxUnavailable (CLI: --no-sandbox). Where the sandbox works it is used regardless.
    bool allowUnsandboxed = false;

    bool operator==(const TraceRequest&) const = default;
};

struct TraceOutcome {
    std::filesystem::path irFile; ///< `request.output`: the IR, the kernel list or the numerics document
    std::string warnings; ///< what the front end printed on stderr besides the IR, for a problems panel (capped)
    bool networkIsolated = false;
    bool sandboxed = false;               ///< false only when allowUnsandboxed let it run without the sandbox
    std::uint64_t droppedOutputBytes = 0; ///< output the kernel printed beyond the kept head and tail
};

/// Runs the Python NKI front end (sim/frontend) on a kernel, in the OS sandbox of Sandbox.h: the kernel's
/// folder (or package) read-only, no network, no home, no other processes, a seccomp filter, limits on CPU,
/// memory, processes and file size, and a hard kill of the whole sandbox a little after the front end's own
/// time-out (so that the front end can normally report the line it was stuck at).
///
/// The result is accepted only through the channel opened for this run: a random nonce goes to the front end
/// on its stdin (read and closed before kernel code runs), the IR goes to an inherited descriptor, and the
/// front end's report (stdout, which it keeps to itself) must carry the nonce: `{"nonce", "done": {"bytes"}}`
/// or `{"nonce", "error": {...}}`. A kernel that prints an error object, writes its own IR and exits, or dies,
/// ends as "the front end did not report", with its output shown as its output. Front-end errors come back as
/// kl::Error with the kernel file and line. When the sandbox cannot be set up the error is
/// ErrorCode::SandboxUnavailable (message: what is missing; hint: what to do), unless allowUnsandboxed.
[[nodiscard]] Expected<TraceOutcome> runTrace(const TraceRequest& request,
                                              const std::function<bool()>& shouldCancel = {});

} // namespace kl::core
