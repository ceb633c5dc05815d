#include "compat/CompatRun.h"

#include "hw/ProfileLocator.h"
#include "run/RunPipeline.h"

#include <chrono>

namespace kl::core {

CompatResult runCompatJob(const CompatJob& job, const CompatSettings& settings,
                          const std::function<bool()>& shouldCancel) {
    const auto started = std::chrono::steady_clock::now();
    CompatResult r;
    r.file = job.file;
    r.kernel = job.kernel;
    r.hardware = job.hardware;
    r.shapeSource = job.shapeSource;
    auto finish = [&](CompatStatus status, std::optional<Error> error = std::nullopt) {
        r.status = status;
        r.error = std::move(error);
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return r;
    };
    if (!job.skipReason.empty()) {
        r.skipReason = job.skipReason;
        return finish(CompatStatus::Skipped);
    }
    if (job.error) {
        return finish(CompatStatus::Failed, job.error);
    }
    auto profile = sim::ProfileLocator::resolve(job.hardware, settings.bases);
    if (!profile) {
        return finish(CompatStatus::Failed, profile.error());
    }
    RunRequest run;
    run.trace = job.trace;
    run.hardware = profile->string();
    RunStage reached = RunStage::Tracing;
    auto outcome = traceAndSimulate(run, shouldCancel, [&](RunStage stage) { reached = stage; });
    if (!outcome) {
        // Past tracing, the front end did its part: the kernel traced but did not simulate.
        const bool traced = reached != RunStage::Tracing && outcome.error().code != ErrorCode::Cancelled;
        return finish(traced ? CompatStatus::TracedOnly : CompatStatus::Failed, outcome.error());
    }
    r.instructions = outcome->result->summary.instructionCount;
    r.simulatedPs = outcome->result->summary.totalPs;
    return finish(CompatStatus::Simulated);
}

} // namespace kl::core
