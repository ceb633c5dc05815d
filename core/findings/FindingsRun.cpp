#include "findings/FindingsRun.h"

#include "hw/ProfileLocator.h"
#include "support/ResourcePaths.h"
#include "support/Try.h"

namespace kl::core::findings {

Expected<sim::HardwareProfile> profileOfRun(const RunOutcome& run) {
    auto path = sim::ProfileLocator::resolve(run.hardware.spec, {dataRoot()});
    KL_TRY(path);
    return sim::HardwareProfile::loadFile(*path);
}

Expected<std::vector<Finding>> findingsForRun(const FindingsEngine& engine, const RunOutcome& run, const TaskSpec* task,
                                              const NumericsResult* numerics) {
    if (!run.ir || !run.result) {
        return makeError(ErrorCode::InvalidArgument, "findings need a traced and simulated run");
    }
    auto profile = profileOfRun(run);
    KL_TRY(profile);
    std::optional<MigrationSource> migration;
    if (task != nullptr) {
        auto loaded = loadMigrationSource(*task, *run.ir);
        KL_TRY(loaded);
        migration = std::move(*loaded);
    }
    return engine.run(*run.ir, *run.result, *profile, migration ? &*migration : nullptr, numerics);
}

} // namespace kl::core::findings
