#include "trace/TraceRunner.h"

#include "support/ResourcePaths.h"
#include "support/Subprocess.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <system_error>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

// The front end enforces its own limit and reports the kernel line; the hard kill is the backstop.
constexpr int kHardKillGraceSeconds = 5;

ErrorCode codeFromName(const std::string& name) {
    static const std::pair<const char*, ErrorCode> kCodes[] = {
        {"invalid_argument", ErrorCode::InvalidArgument}, {"not_found", ErrorCode::NotFound},
        {"parse", ErrorCode::Parse},                      {"unsupported", ErrorCode::Unsupported},
        {"kernel_error", ErrorCode::KernelError},         {"timeout", ErrorCode::Timeout},
        {"io", ErrorCode::Io},                            {"cancelled", ErrorCode::Cancelled},
    };
    for (const auto& [text, code] : kCodes) {
        if (name == text) {
            return code;
        }
    }
    return ErrorCode::Internal;
}

std::vector<std::string> buildCommand(const TraceRequest& request, const fs::path& output) {
    std::vector<std::string> argv = {pythonInterpreter().string(), "-E", "-s", "-S", frontendEntryScript().string()};
    if (!request.taskDir.empty()) {
        argv.insert(argv.end(), {"--task", fs::absolute(request.taskDir).string()});
    } else {
        argv.insert(argv.end(), {"--kernel-file", fs::absolute(request.kernelFile).string()});
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
    if (!request.packageRoot.empty()) {
        argv.insert(argv.end(), {"--package-root", fs::absolute(request.packageRoot).string()});
    }
    if (request.listKernels) {
        argv.emplace_back("--list-kernels");
    }
    argv.insert(argv.end(), {"-o", fs::absolute(output).string(), "--timeout", std::to_string(request.timeoutSeconds),
                             "--memory-mb", std::to_string(request.memoryMegabytes)});
    return argv;
}

} // namespace

Error parseFrontendError(const std::string& stdoutText, const std::string& stderrText) {
    const auto doc = nlohmann::json::parse(stdoutText, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object() && doc.contains("error") && doc["error"].is_object()) {
        const auto& e = doc["error"];
        Error error;
        error.code = codeFromName(e.value("code", "internal"));
        error.message = e.value("message", "the kernel could not be traced");
        error.file = e.contains("file") && e["file"].is_string() ? e["file"].get<std::string>() : "";
        error.line = e.contains("line") && e["line"].is_number_integer() ? e["line"].get<int>() : 0;
        error.hint = e.contains("hint") && e["hint"].is_string() ? e["hint"].get<std::string>() : "";
        return error;
    }
    return Error{ErrorCode::Internal,
                 fmt::format("the NKI front end failed without a report; its output was:\n{}", stderrText), "", 0,
                 "this is a KernelLens bug; please report it with the kernel"};
}

Expected<TraceOutcome> runTrace(const TraceRequest& request, const std::function<bool()>& shouldCancel) {
    if (request.taskDir.empty() && request.kernelFile.empty()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to trace: give a task folder or a kernel file");
    }
    const fs::path script = frontendEntryScript();
    std::error_code ec;
    if (!fs::exists(script, ec)) {
        return makeError(ErrorCode::NotFound, "the NKI front end is not installed", script.string(), 0,
                         "set KL_DATA_DIR to the folder that holds sim/frontend and resources/");
    }
    TemporaryDirectory sandboxDir;
    if (!sandboxDir.valid()) {
        return makeError(ErrorCode::Io, "cannot create a temporary working directory for the front end");
    }
    SandboxOptions options;
    options.wallClockLimit = std::chrono::seconds(request.timeoutSeconds + kHardKillGraceSeconds);
    options.cpuSeconds = request.timeoutSeconds + kHardKillGraceSeconds;
    options.memoryMegabytes = request.memoryMegabytes + 512; // room for the interpreter itself
    options.workingDirectory = sandboxDir.path();

    auto result = runSubprocess(buildCommand(request, request.output), options, shouldCancel);
    if (!result) {
        return std::unexpected(result.error());
    }
    if (result->cancelled) {
        return makeError(ErrorCode::Cancelled, "tracing was cancelled");
    }
    if (result->timedOut) {
        return makeError(ErrorCode::Timeout,
                         fmt::format("tracing timed out after {} s and was stopped", request.timeoutSeconds), "", 0,
                         "look for a loop that never ends, or raise the limit");
    }
    if (result->exitCode != 0) {
        return std::unexpected(parseFrontendError(result->out, result->err));
    }
    return TraceOutcome{request.output, result->err, result->networkIsolated};
}

} // namespace kl::core
