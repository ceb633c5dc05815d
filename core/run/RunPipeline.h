#pragma once

#include "common/Error.h"
#include "hw/HardwareChoice.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"
#include "trace/TraceRunner.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace kl::core {

/// The stages a run reports while it goes, for a progress bar.
enum class RunStage { Tracing, LoadingIr, Simulating, Done };

/// Where a run is, with the figures of the stages behind it (0 where not known yet): reported as each stage
/// begins, for a status line such as "Simulating 99,328 instructions (10.9 MB of IR read), 2.3 s".
struct RunProgress {
    RunStage stage = RunStage::Tracing;
    std::uint64_t instructionsTraced = 0;    ///< known once the IR is loaded
    std::uint64_t irBytes = 0;               ///< the IR file's size, known once traced
    std::uint64_t instructionsSimulated = 0; ///< at Done
    double elapsedSeconds = 0;               ///< since the run began
};

struct RunRequest {
    TraceRequest trace; ///< `output` is ignored: the IR goes to a temporary file
    /// Profile name or path to a profile JSON. Empty: the task's `hardware` (when tracing a task folder), else
    /// the default for the kernel's NKI API (sim::chooseHardware).
    std::string hardware;

    /// The same run: a run begun early (the GUI's head start) is adopted only for an equal request.
    bool operator==(const RunRequest&) const = default;
};

/// A traced and simulated kernel. The IR is kept so that what-if runs re-simulate without re-tracing.
struct RunOutcome {
    std::shared_ptr<const sim::KernelIr> ir;
    std::shared_ptr<const sim::SimResult> result;
    std::string warnings;
    sim::HardwareChoice hardware; ///< the profile the run used and why
};

/// Trace (sandboxed front end) -> load IR -> simulate on the named profile. Blocking; call it from a worker.
/// `shouldCancel` is polled while tracing; `onStage` is called as each stage begins, and `onProgress` too, with
/// the figures so far.
[[nodiscard]] Expected<RunOutcome> traceAndSimulate(const RunRequest& request,
                                                    const std::function<bool()>& shouldCancel = {},
                                                    const std::function<void(RunStage)>& onStage = {},
                                                    const std::function<void(const RunProgress&)>& onProgress = {});

/// Re-simulates an already traced kernel on a profile (a name or a path; empty: the default for the IR's NKI API).
[[nodiscard]] Expected<std::shared_ptr<const sim::SimResult>> simulate(const sim::KernelIr& ir,
                                                                       const std::string& hardware);

} // namespace kl::core
