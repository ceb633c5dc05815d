#pragma once

#include "common/Error.h"
#include "engine/SimTypes.h"
#include "hw/HardwareChoice.h"
#include "trace/TraceRunner.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

/// How `kernellens-cli compat` runs: where relative paths start, the default profile and limits.
struct CompatSettings {
    std::filesystem::path root = ".";  ///< manifest `file` and `package_root` are relative to it
    std::filesystem::path packageRoot; ///< for entries and paths without their own; empty: none
    /// Profile name or .json path; a manifest entry's `hw` wins. Default trn2, the default for nki.* kernels.
    std::string hardware{sim::defaultProfileFor(sim::KernelApi::Nki)};
    int timeoutSeconds = 120;                 ///< per kernel, for tracing
    bool allowUnsandboxed = false;            ///< TraceRequest::allowUnsandboxed (--no-sandbox)
    std::vector<std::filesystem::path> bases; ///< where profiles are looked up (sim::ProfileLocator)
};

/// One kernel to try. A job may already be decided before it runs: skipped (with the reason) or failed
/// (the kernel list or task.json could not be read).
struct CompatJob {
    std::string file;   ///< as shown: relative to the root (manifest) or as found under a given path
    std::string kernel; ///< may be empty when the file's kernels could not be listed
    TraceRequest trace; ///< `output` is ignored
    std::string hardware;
    std::string shapeSource;
    std::optional<Error> error;
    std::string skipReason;
};

enum class CompatStatus { Simulated, TracedOnly, Failed, Skipped };

/// "simulated", "traced-only", "failed", "skipped": the words of the table and the JSON.
[[nodiscard]] const char* compatStatusName(CompatStatus status);

struct CompatResult {
    std::string file;
    std::string kernel;
    std::string hardware;
    CompatStatus status = CompatStatus::Failed;
    std::uint64_t instructions = 0; ///< meaningful when simulated
    sim::TimePs simulatedPs = 0;    ///< meaningful when simulated
    std::optional<Error> error;     ///< failed or traced-only: why
    std::string skipReason;         ///< skipped: why
    std::string shapeSource;
    double seconds = 0; ///< wall-clock time spent on this kernel (never compared in tests)
};

struct CompatSummary {
    std::size_t total = 0;
    std::size_t simulated = 0;
    std::size_t tracedOnly = 0;
    std::size_t failed = 0;
    std::size_t skipped = 0;

    [[nodiscard]] static CompatSummary of(const std::vector<CompatResult>& results);
    /// 0 when every kernel that was tried simulated (skipped ones do not count), else 1.
    [[nodiscard]] int exitCode() const { return failed + tracedOnly == 0 ? 0 : 1; }
};

} // namespace kl::core
