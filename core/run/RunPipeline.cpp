#include "run/RunPipeline.h"

#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "ir/IrLoader.h"
#include "engine/Simulator.h"
#include "support/ResourcePaths.h"
#include "support/Subprocess.h"

namespace kl::core {

Expected<std::shared_ptr<const sim::SimResult>> simulate(const sim::KernelIr& ir, const std::string& hardware) {
    auto path = sim::ProfileLocator::resolve(hardware, {dataRoot()});
    if (!path) {
        return std::unexpected(path.error());
    }
    auto profile = sim::HardwareProfile::loadFile(*path);
    if (!profile) {
        return std::unexpected(profile.error());
    }
    return sim::Simulator::run(ir, *profile);
}

Expected<RunOutcome> traceAndSimulate(const RunRequest& request, const std::function<bool()>& shouldCancel,
                                      const std::function<void(RunStage)>& onStage) {
    auto stage = [&](RunStage s) {
        if (onStage) {
            onStage(s);
        }
    };
    TemporaryDirectory scratch;
    if (!scratch.valid()) {
        return makeError(ErrorCode::Io, "cannot create a temporary folder for the Kernel IR");
    }
    TraceRequest trace = request.trace;
    trace.output = scratch.path() / "kernel.ir.json";
    stage(RunStage::Tracing);
    auto traced = runTrace(trace, shouldCancel);
    if (!traced) {
        return std::unexpected(traced.error());
    }
    if (shouldCancel && shouldCancel()) {
        return makeError(ErrorCode::Cancelled, "cancelled");
    }
    stage(RunStage::LoadingIr);
    auto ir = sim::IrLoader::loadFile(traced->irFile);
    if (!ir) {
        return std::unexpected(ir.error());
    }
    stage(RunStage::Simulating);
    auto result = simulate(*ir, request.hardware);
    if (!result) {
        return std::unexpected(result.error());
    }
    stage(RunStage::Done);
    return RunOutcome{std::make_shared<const sim::KernelIr>(std::move(*ir)), std::move(*result), traced->warnings};
}

} // namespace kl::core
