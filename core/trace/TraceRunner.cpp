#include "trace/TraceRunner.h"

#include "support/ResourcePaths.h"
#include "support/Subprocess.h"
#include "trace/FrontendReport.h"
#include "trace/KernelLocation.h"
#include "trace/Sandbox.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

/// The descriptor the front end writes its result to (`--output-fd`).
constexpr int kOutputFd = 3;
/// RLIMIT_NPROC inside the sandbox, set by the front end itself: before bwrap it would count every process
/// the user runs, not only the sandbox's (see docs/sandbox.md).
constexpr int kMaxProcesses = 64;
/// How much of the front end's last output an error message quotes.
constexpr std::size_t kQuotedOutput = 2000;

/// The front end enforces its own limit and reports the kernel line; the hard kill is the backstop.
int hardKillGraceSeconds(int timeoutSeconds) {
    return std::clamp(timeoutSeconds / 4, 1, 5);
}

std::string makeNonce() {
    unsigned char bytes[16];
    std::size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n > 0) {
            got += static_cast<std::size_t>(n);
        } else if (errno != EINTR) {
            return {};
        }
    }
    std::string nonce;
    for (unsigned char b : bytes) {
        nonce += fmt::format("{:02x}", b);
    }
    return nonce;
}

std::vector<std::string> frontendCommand(const TraceRequest& request, const KernelLocation& where) {
    std::vector<std::string> argv = {pythonInterpreter().string(), "-B", "-s", "-S", frontendEntryScript().string()};
    if (!where.taskDir.empty()) {
        argv.insert(argv.end(), {"--task", where.taskDir.string()});
    } else {
        argv.insert(argv.end(), {"--kernel-file", where.kernelFile.string()});
    }
    if (!request.kernelName.empty()) {
        argv.insert(argv.end(), {"--kernel", request.kernelName});
    }
    for (const auto& arg : request.argSpecs) {
        argv.insert(argv.end(), {"--arg", arg});
    }
    for (const auto& scalar : request.scalars) {
        argv.insert(argv.end(), {"--scalar", scalar});
    }
    if (!request.grid.empty()) {
        argv.insert(argv.end(), {"--grid", request.grid});
    }
    if (!request.lnc.empty()) {
        argv.insert(argv.end(), {"--lnc", request.lnc});
    }
    if (!where.packageRoot.empty()) {
        argv.insert(argv.end(), {"--package-root", where.packageRoot.string()});
    }
    if (!request.hardware.empty()) {
        argv.insert(argv.end(), {"--hw", request.hardware});
    }
    if (request.listKernels) {
        argv.emplace_back("--list-kernels");
    } else {
        argv.insert(argv.end(), {"--format", request.irFormat == IrFormat::Binary ? "binary" : "json"});
    }
    const auto numerics = request.numerics.frontendFlags();
    argv.insert(argv.end(), numerics.begin(), numerics.end());
    argv.insert(argv.end(),
                {"--output-fd", std::to_string(kOutputFd), "--nonce-stdin", "--timeout",
                 std::to_string(request.timeoutSeconds), "--memory-mb", std::to_string(request.memoryMegabytes),
                 "--max-processes", std::to_string(kMaxProcesses)});
    return argv;
}

/// The front end's whole environment: what Python needs, and a few settings passed through.
std::vector<std::pair<std::string, std::string>> frontendEnvironment() {
    std::vector<std::pair<std::string, std::string>> env = {
        {"PATH", "/usr/bin:/bin"}, {"LANG", "C.UTF-8"},           {"PYTHONDONTWRITEBYTECODE", "1"},
        {"PYTHONHASHSEED", "0"},   {"OPENBLAS_NUM_THREADS", "1"},
    };
    for (const char* name : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "KLTRACE_DEBUG", "KLTRACE_NUMPY_SHIM"}) {
        if (const char* value = std::getenv(name)) {
            env.emplace_back(name, value);
        }
    }
    return env;
}

/// The files a numerics run names on the command line (a reference, an input .npy/.npz) are resolved against
/// the caller's working folder, which the sandbox does not see: each becomes an absolute path, mounted
/// read-only by itself. A name that is no file here stays as given (the front end resolves it in the task).
NumericsOptions mountNumericsFiles(NumericsOptions numerics, std::vector<fs::path>& readOnly) {
    auto resolve = [&](std::string& name, bool hasFunction) {
        const std::size_t colon = hasFunction ? name.rfind(':') : std::string::npos;
        const std::string file = colon == std::string::npos ? name : name.substr(0, colon);
        std::error_code ec;
        if (file.empty() || !fs::is_regular_file(file, ec)) {
            return;
        }
        const fs::path absolute = fs::canonical(file, ec);
        if (ec) {
            return;
        }
        readOnly.push_back(absolute);
        name = absolute.string() + (colon == std::string::npos ? std::string() : name.substr(colon));
    };
    resolve(numerics.reference, true);
    resolve(numerics.inputs, false);
    return numerics;
}

std::string lastOutput(const std::string& err) {
    if (err.size() <= kQuotedOutput) {
        return err;
    }
    return "[...]\n" + err.substr(err.size() - kQuotedOutput);
}

/// The front end ended without a report carrying the nonce: the kernel ended the process, or it died.
Error unreported(const SubprocessResult& result, const TraceRequest& request) {
    std::string how;
    std::string hint = "kernels must return normally; they must not end the process (sys.exit, os._exit) or write "
                       "results of their own";
    if (result.signal == SIGXCPU || result.signal == SIGKILL) {
        how = fmt::format("was killed (signal {}): it used more than {} s of CPU time", result.signal,
                          request.timeoutSeconds);
        hint = "look for a loop that never ends, or raise the limit";
    } else if (result.signal == SIGXFSZ) {
        how = fmt::format("was killed: it wrote a file larger than {} MiB", request.outputMegabytes);
    } else if (result.signal != 0) {
        how = fmt::format("was killed by signal {} ({})", result.signal, ::strsignal(result.signal));
        hint = "the kernel may have crashed the interpreter (ctypes, a signal), or run out of memory; if not, "
               "please report this with the kernel";
    } else {
        how = fmt::format("ended (exit code {})", result.exitCode);
    }
    const fs::path kernel = request.taskDir.empty() ? request.kernelFile : request.taskDir;
    std::string message = fmt::format("the NKI front end {} without reporting a result; nothing the kernel printed "
                                      "or wrote is taken as one",
                                      how);
    if (!result.err.empty()) {
        message += "\nthe kernel's last output was:\n" + lastOutput(result.err);
    }
    return Error{ErrorCode::KernelError, message, kernel.string(), 0, hint};
}

Expected<TraceOutcome> accept(const SubprocessResult& result, const std::string& nonce, const fs::path& resultFile,
                              const TraceRequest& request) {
    if (result.cancelled) {
        return makeError(ErrorCode::Cancelled, "tracing was cancelled");
    }
    if (result.timedOut) {
        return makeError(ErrorCode::Timeout,
                         fmt::format("tracing did not finish within {} s; the kernel did not let the front end stop "
                                     "it, so the whole sandbox was killed",
                                     request.timeoutSeconds),
                         request.taskDir.empty() ? request.kernelFile.string() : request.taskDir.string(), 0,
                         "look for a loop that never ends or a kernel that blocks signals, or raise the limit");
    }
    const auto report = parseFrontendReport(result.out, nonce);
    if (report && report->error) {
        return std::unexpected(*report->error);
    }
    std::error_code ec;
    const auto size = fs::file_size(resultFile, ec);
    if (!report || !report->done || result.exitCode != 0 || ec || size != report->bytes) {
        return std::unexpected(unreported(result, request));
    }
    fs::copy_file(resultFile, request.output, fs::copy_options::overwrite_existing, ec);
    if (ec) {
        return makeError(ErrorCode::Io, "cannot write the trace: " + ec.message(), request.output.string());
    }
    TraceOutcome outcome;
    outcome.irFile = request.output;
    outcome.warnings = result.err;
    outcome.networkIsolated = result.networkIsolated;
    outcome.droppedOutputBytes = result.droppedBytes;
    return outcome;
}

/// One run of the front end on `where`, in the sandbox when `sandbox` is available. `failedEarly` tells whether
/// the process ended without any report from the front end (nothing ran, or bwrap could not build the sandbox).
Expected<TraceOutcome> runFrontend(const TraceRequest& request, KernelLocation where, const fs::path& script,
                                   const SandboxStatus& sandbox, const std::function<bool()>& shouldCancel,
                                   bool* failedEarly) {
    *failedEarly = false;
    std::error_code ec;
    TemporaryDirectory privateDir;
    const std::string nonce = makeNonce();
    if (!privateDir.valid() || nonce.empty()) {
        return makeError(ErrorCode::Io, "cannot create a private folder for the front end's output");
    }
    const fs::path resultFile = privateDir.path() / "result.json";
    const int resultFd = ::open(resultFile.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (resultFd < 0) {
        return makeError(ErrorCode::Io, std::string("cannot create the front end's output: ") + std::strerror(errno));
    }
    const int grace = hardKillGraceSeconds(request.timeoutSeconds);
    ProcessOptions options;
    options.wallClockLimit = std::chrono::seconds(request.timeoutSeconds + grace);
    options.cpuSeconds = request.timeoutSeconds + grace;
    options.memoryMegabytes = request.memoryMegabytes + 512; // room for the interpreter itself
    options.fileSizeMegabytes = request.outputMegabytes;
    options.workingDirectory = privateDir.path();
    options.inputs.push_back(ChildInput{STDIN_FILENO, nonce + "\n"});
    options.passedFds.push_back(PassedFd{resultFd, kOutputFd});
    const auto environment = frontendEnvironment();
    TraceRequest resolved = request;
    resolved.numerics = mountNumericsFiles(request.numerics, where.readOnly);
    const auto command = frontendCommand(resolved, where);

    Expected<SubprocessResult> result;
    if (sandbox.available) {
        SandboxSettings settings;
        settings.readOnly = where.readOnly;
        settings.readOnly.push_back(fs::canonical(script.parent_path(), ec));
        // The front end reads its size limits from the hardware profiles (one place for those numbers); a data
        // folder without them gets the front end's own message naming the missing profile.
        if (const fs::path profiles = resourcesDir() / "hw"; fs::is_directory(profiles, ec)) {
            settings.readOnly.push_back(fs::canonical(profiles, ec));
        }
        if (const fs::path chosen = request.hardware; chosen.is_absolute() && fs::is_regular_file(chosen, ec)) {
            settings.readOnly.push_back(fs::canonical(chosen, ec));
        }
        for (const fs::path& p : Sandbox::interpreterMounts(pythonInterpreter())) {
            settings.readOnly.push_back(p);
        }
        settings.environment = environment;
        result = Sandbox::run(sandbox.bwrap, settings, command, options, shouldCancel);
    } else {
        options.environment.emplace();
        for (const auto& [name, value] : environment) {
            options.environment->push_back(name + "=" + value);
        }
        result = runSubprocess(command, options, shouldCancel);
    }
    ::close(resultFd);
    KL_TRY(result);
    *failedEarly =
        !result->cancelled && !result->timedOut && result->exitCode != 0 && !parseFrontendReport(result->out, nonce);
    auto outcome = accept(*result, nonce, resultFile, request);
    if (outcome) {
        outcome->sandboxed = sandbox.available;
        outcome->networkIsolated = outcome->networkIsolated || sandbox.available;
        if (!sandbox.available) {
            outcome->warnings = fmt::format("kernellens: the kernel ran WITHOUT the sandbox: {}\n", sandbox.problem) +
                                outcome->warnings;
        }
    }
    return outcome;
}

Error sandboxUnavailable(const SandboxStatus& sandbox) {
    return Error{ErrorCode::SandboxUnavailable, sandbox.problem + "; the kernel was not run", "", 0, sandbox.hint};
}

} // namespace

Expected<TraceOutcome> runTrace(const TraceRequest& request, const std::function<bool()>& shouldCancel) {
    if (request.taskDir.empty() && request.kernelFile.empty()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to trace: give a task folder or a kernel file");
    }
    if (request.output.empty()) {
        return makeError(ErrorCode::InvalidArgument, "runTrace needs an output file");
    }
    const fs::path script = frontendEntryScript();
    std::error_code ec;
    if (!fs::exists(script, ec)) {
        return makeError(ErrorCode::NotFound, "the NKI front end is not installed", script.string(), 0,
                         "set KL_DATA_DIR to the folder that holds sim/frontend and resources/");
    }
    auto where = locateKernel(request);
    KL_TRY(where);
    // The real run tests the sandbox too; only a run that failed before the front end said anything pays for
    // the self-test, which tells a machine without working namespaces from a kernel that failed.
    SandboxStatus sandbox = Sandbox::presumed();
    if (!sandbox.available && !request.allowUnsandboxed) {
        return std::unexpected(sandboxUnavailable(sandbox));
    }
    bool failedEarly = false;
    auto outcome = runFrontend(request, *where, script, sandbox, shouldCancel, &failedEarly);
    if (sandbox.available && failedEarly) {
        sandbox = Sandbox::status();
        if (!sandbox.available) {
            if (!request.allowUnsandboxed) {
                return std::unexpected(sandboxUnavailable(sandbox));
            }
            outcome = runFrontend(request, *where, script, sandbox, shouldCancel, &failedEarly);
        }
    }
    return outcome;
}

} // namespace kl::core
