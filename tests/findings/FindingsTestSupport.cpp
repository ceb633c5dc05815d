#include "FindingsTestSupport.h"

#include "findings/FindingsRun.h"
#include "task/TaskSpec.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace kl::core::findings::test {

namespace fs = std::filesystem;

std::string kernelsDir() {
    return std::string(KL_SOURCE_DIR) + "/tests/findings/kernels";
}

const Finding* Analysed::find(std::string_view rule) const {
    for (const Finding& f : findings) {
        if (f.rule == rule) {
            return &f;
        }
    }
    return nullptr;
}

std::string Analysed::summary() const {
    std::string out;
    for (const Finding& f : findings) {
        out += f.rule + "(" + std::string(toString(f.severity)) + ") ";
    }
    return out.empty() ? "no findings" : out;
}

std::optional<Analysed> analyse(const std::string& file, const std::string& kernel,
                                const std::vector<std::string>& args, const std::string& hardware) {
    const fs::path path = fs::path(file).is_absolute() ? fs::path(file) : fs::path(kernelsDir()) / file;
    RunRequest request;
    if (fs::is_directory(path)) {
        request.trace.taskDir = path;
    } else {
        request.trace.kernelFile = path;
    }
    request.trace.kernelName = kernel;
    request.trace.argSpecs = args;
    request.hardware = hardware;
    auto run = traceAndSimulate(request);
    if (!run) {
        ADD_FAILURE() << "cannot trace " << path << ": " << formatError(run.error());
        return std::nullopt;
    }
    auto engine = FindingsEngine::createDefault();
    if (!engine) {
        ADD_FAILURE() << formatError(engine.error());
        return std::nullopt;
    }
    std::optional<TaskSpec> task;
    if (!request.trace.taskDir.empty()) {
        auto spec = loadTaskSpec(request.trace.taskDir);
        if (!spec) {
            ADD_FAILURE() << formatError(spec.error());
            return std::nullopt;
        }
        task = std::move(*spec);
    }
    auto findings = findingsForRun(*engine, *run, task ? &*task : nullptr);
    if (!findings) {
        ADD_FAILURE() << formatError(findings.error());
        return std::nullopt;
    }
    return Analysed{std::move(*run), std::move(*findings)};
}

} // namespace kl::core::findings::test
