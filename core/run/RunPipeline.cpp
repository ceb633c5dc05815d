#include "run/RunPipeline.h"

#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "ir/IrLoader.h"
#include "engine/Simulator.h"
#include "support/PathInside.h"
#include "support/ResourcePaths.h"
#include "support/Subprocess.h"
#include "task/TaskSpec.h"
#include "support/Try.h"

#include <chrono>
#include <filesystem>

namespace kl::core {

Expected<std::shared_ptr<const sim::SimResult>> simulate(const sim::KernelIr& ir, const std::string& hardware) {
    const sim::HardwareChoice choice = sim::chooseHardware(hardware, {}, sim::kernelApiOf(ir.api));
    auto path = sim::ProfileLocator::resolve(choice.spec, {dataRoot()});
    KL_TRY(path);
    auto profile = sim::HardwareProfile::loadFile(*path);
    KL_TRY(profile);
    return sim::Simulator::run(ir, *profile);
}

namespace {

/// The loader refused the IR the front end wrote for this kernel: the kernel traced, so the fault is the front
/// end's. The message names the kernel, not the scratch file that is gone when the run returns.
Error refusedTrace(const Error& loader, const TraceRequest& trace) {
    const std::filesystem::path kernel = trace.kernelFile.empty() ? trace.taskDir : trace.kernelFile;
    return Error{loader.code,
                 "the kernel traced, but the Kernel IR the front end wrote for it did not load (a KernelLens "
                 "front-end fault): " +
                     loader.message,
                 kernel.string(), 0,
                 "please report it with the kernel; `kernellens-cli trace ... --format json -o IR.json` writes the "
                 "IR to look at"};
}

} // namespace

Expected<RunOutcome> traceAndSimulate(const RunRequest& request, const std::function<bool()>& shouldCancel,
                                      const std::function<void(RunStage)>& onStage,
                                      const std::function<void(const RunProgress&)>& onProgress) {
    const auto started = std::chrono::steady_clock::now();
    RunProgress progress;
    auto stage = [&](RunStage s) {
        if (onStage) {
            onStage(s);
        }
        if (onProgress) {
            progress.stage = s;
            progress.elapsedSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            onProgress(progress);
        }
    };
    TemporaryDirectory scratch;
    if (!scratch.valid()) {
        return makeError(ErrorCode::Io, "cannot create a temporary folder for the Kernel IR");
    }
    TraceRequest trace = request.trace;
    trace.output = scratch.path() / "kernel.klir";
    // The task's `hardware` is known before tracing (the kernel's API, the last rule, only after it).
    std::string taskHardware;
    if (request.hardware.empty() && !request.trace.taskDir.empty()) {
        if (auto spec = loadTaskSpec(request.trace.taskDir)) { // a broken task.json is the trace's to report
            taskHardware = spec->hardwareSpec();
        }
    }
    const std::string& named = request.hardware.empty() ? taskHardware : request.hardware;
    if (!named.empty() && trace.hardware.empty()) {
        // The front end checks tile sizes against the profile the user or the task chose (by its absolute path:
        // the front end runs in a private folder); without one it keeps its own default.
        auto profile = sim::ProfileLocator::resolve(named, {dataRoot()});
        KL_TRY(profile);
        // The profile file is mounted into the kernel's sandbox. One the task names is passed only from the
        // bundled profiles or the task's own folder (visible to the kernel anyway): task.json must not make the
        // sandbox show the kernel any other file. Otherwise the front end keeps its default for the kernel's API.
        const auto real = [](const std::filesystem::path& p) {
            std::error_code ec;
            return std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
        };
        if (request.hardware.empty() && !isInsideOrSame(real(*profile), real(request.trace.taskDir)) &&
            !isInsideOrSame(real(*profile), real(dataRoot()))) {
            profile = std::filesystem::path();
        }
        if (!profile->empty()) {
            trace.hardware = std::filesystem::absolute(*profile).string();
        }
    }
    stage(RunStage::Tracing);
    auto traced = runTrace(trace, shouldCancel);
    KL_TRY(traced);
    if (shouldCancel && shouldCancel()) {
        return makeError(ErrorCode::Cancelled, "cancelled");
    }
    std::error_code sizeError;
    progress.irBytes = std::filesystem::file_size(traced->irFile, sizeError);
    stage(RunStage::LoadingIr);
    auto ir = sim::IrLoader::loadFile(traced->irFile);
    if (!ir) {
        return std::unexpected(refusedTrace(ir.error(), request.trace));
    }
    progress.instructionsTraced = ir->instructions().size();
    stage(RunStage::Simulating);
    sim::HardwareChoice choice = sim::chooseHardware(request.hardware, taskHardware, sim::kernelApiOf(ir->api));
    auto result = simulate(*ir, choice.spec);
    KL_TRY(result);
    progress.instructionsSimulated = static_cast<std::uint64_t>((*result)->summary.instructionCount);
    stage(RunStage::Done);
    return RunOutcome{std::make_shared<const sim::KernelIr>(std::move(*ir)), std::move(*result), traced->warnings,
                      std::move(choice)};
}

} // namespace kl::core
