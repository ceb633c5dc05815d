#pragma once

#include "common/Error.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kl::core {

/// Limits and isolation applied to a child process before it runs any of its own code.
struct SandboxOptions {
    std::chrono::milliseconds wallClockLimit{60'000}; ///< hard kill of the whole process group after this
    int cpuSeconds = 0;                             ///< RLIMIT_CPU, 0 = unlimited
    long memoryMegabytes = 0;                       ///< RLIMIT_AS, 0 = unlimited
    bool isolateNetwork = true;                     ///< private network namespace when the system allows it
    std::filesystem::path workingDirectory;         ///< empty = inherit
};

struct SubprocessResult {
    int exitCode = -1;       ///< exit status, or -1 when killed by a signal
    int signal = 0;          ///< the signal that ended the child, 0 when it exited
    bool timedOut = false;   ///< killed because the wall-clock limit passed
    bool cancelled = false;  ///< killed because the caller asked
    bool networkIsolated = false;
    std::string out;
    std::string err;
};

/// Runs one program to completion with its output captured, in its own process group so that a time-out or
/// a cancel kills everything it started. `shouldCancel` is polled about ten times a second.
///
/// Responsible only for process mechanics; what the output means is the caller's business.
[[nodiscard]] Expected<SubprocessResult> runSubprocess(const std::vector<std::string>& argv,
                                                       const SandboxOptions& options,
                                                       const std::function<bool()>& shouldCancel = {});

/// A folder under the system temporary directory that is removed with everything in it on destruction.
class TemporaryDirectory {
public:
    TemporaryDirectory();
    ~TemporaryDirectory();
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
    [[nodiscard]] bool valid() const { return !m_path.empty(); }

private:
    std::filesystem::path m_path;
};

} // namespace kl::core
