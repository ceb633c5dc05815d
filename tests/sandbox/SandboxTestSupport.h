#pragma once

#include "trace/TraceRunner.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace kl::test {

/// Who runs the trace: this process as it is (root in CI), or a child that dropped to uid/gid 65534 (nobody)
/// before doing anything, so that the sandbox is checked the way an unprivileged user meets it.
enum class Privilege { AsIs, Nobody };

/// What a run showed, carried back from the unprivileged child through a pipe.
struct Observed {
    bool ok = false;
    int code = -1; ///< kl::ErrorCode when !ok
    std::string message;
    std::string hint;
    std::string warnings;
    std::uint64_t droppedOutputBytes = 0;
    bool sandboxed = false;
    long peakRssKilobytes = 0; ///< VmHWM of the process that ran the trace
    std::string whoRan;        ///< "uid=N"
};

/// A folder for one test, readable (and its `out/` and `outside/` writable) by nobody, removed at the end:
/// `kernel/` holds the kernel, `home/secret.txt` a file the kernel must not read, `outside/` a folder it
/// must not write to.
class HostileWorkspace {
public:
    HostileWorkspace();
    ~HostileWorkspace();
    HostileWorkspace(const HostileWorkspace&) = delete;
    HostileWorkspace& operator=(const HostileWorkspace&) = delete;

    [[nodiscard]] const std::filesystem::path& root() const { return m_root; }
    [[nodiscard]] std::filesystem::path kernelDir() const { return m_root / "kernel"; }
    [[nodiscard]] std::filesystem::path secretFile() const { return m_root / "home" / "secret.txt"; }
    [[nodiscard]] std::filesystem::path outsideDir() const { return m_root / "outside"; }
    [[nodiscard]] std::filesystem::path output() const { return m_root / "out" / "ir.json"; }

    /// Writes kernel/kernel.py: a valid one-tile kernel `hostile(a)` whose body starts with `body` (indented
    /// four spaces by the caller's text lines) after `imports`; returns the request that traces it.
    core::TraceRequest writeKernel(const std::string& imports, const std::string& body, int timeoutSeconds = 60);

private:
    std::filesystem::path m_root;
};

/// Runs `request` through core::runTrace as `who`.
Observed traceAs(Privilege who, const core::TraceRequest& request);

/// Runs `work` as `who` (in a child that dropped privileges, or here) and returns the string it produced.
std::string runAs(Privilege who, const std::function<std::string()>& work);

/// "as-is" / "nobody", for test names.
std::string privilegeName(Privilege who);

} // namespace kl::test
