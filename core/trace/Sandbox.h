#pragma once

#include "common/Error.h"
#include "support/Subprocess.h"
#include "trace/SeccompFilter.h"

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kl::core {

/// What a sandboxed command may see and use besides the system's programs and libraries.
struct SandboxSettings {
    /// Folders or files bound read-only at the same path (absolute; the kernel's folder, its package, the front
    /// end, an interpreter outside /usr).
    std::vector<std::filesystem::path> readOnly;
    /// The whole environment inside (bubblewrap clears the rest).
    std::vector<std::pair<std::string, std::string>> environment;
    std::filesystem::path workingDirectory = "/tmp";
    long tmpMegabytes = 128; ///< size of the private /tmp (a tmpfs, so memory RLIMIT_AS does not count)
    SeccompPolicy seccomp;
};

/// Whether kernels can run in the sandbox on this machine, and if not, why (for a message and a GUI warning).
struct SandboxStatus {
    bool available = false;
    std::string bwrap;   ///< the bubblewrap binary used, empty when none was found
    std::string problem; ///< what is missing, for people; empty when available
    std::string hint;    ///< what to do about it
};

/// Runs commands in an operating-system sandbox made by bubblewrap (`bwrap`):
///  - namespaces: user (mapped to uid/gid 65534 inside, no capabilities, no nested user namespaces), PID (the
///    command's /proc shows only its own processes; when bwrap's PID 1 dies every process inside dies, so a
///    setsid'd orphan cannot outlive a kill), network (no interfaces but a down loopback), IPC, UTS, cgroup;
///  - files: /usr, the dynamic loader's cache and /etc/alternatives read-only, the folders in
///    SandboxSettings::readOnly read-only, a fresh /dev and /proc, a private size-limited /tmp; nothing else
///    (no /home, no /etc/passwd, no /run, no writable host folder: output goes through an inherited
///    descriptor, ProcessOptions::passedFds);
///  - a seccomp filter (SeccompFilter.h), a cleared environment, a new session (no terminal to inject into),
///    --die-with-parent.
/// Resource limits (CPU, memory, file size) come from ProcessOptions and are set before bwrap starts.
///
/// `KL_BWRAP` names another bwrap binary (tests use it to simulate a machine without one).
class Sandbox {
public:
    /// Looks for bwrap and, the first time it is found, runs a trivial Python command in a sandbox to see that
    /// namespaces work for this user. A success is remembered for the process; a failure is checked again on
    /// the next call (the user may have installed bubblewrap meanwhile).
    [[nodiscard]] static SandboxStatus status();
    /// Available when bwrap is installed, without the self-test: a real run tests the sandbox as well, so a
    /// caller runs its command first and asks status() only when the command failed before it reported anything
    /// (saves a sandboxed interpreter start, about 20 ms, on every process's first run).
    [[nodiscard]] static SandboxStatus presumed();

    /// The bwrap command line that runs `command` inside the sandbox. `seccompFd` is the descriptor the child
    /// reads the filter from (see run()).
    [[nodiscard]] static std::vector<std::string> command(const std::string& bwrap, const SandboxSettings& settings,
                                                          int seccompFd, const std::vector<std::string>& command);

    /// Runs `command` in the sandbox with runSubprocess; `options` gives limits, inputs and passed descriptors
    /// (descriptor 4 is taken by the seccomp filter).
    [[nodiscard]] static Expected<SubprocessResult> run(const std::string& bwrap, const SandboxSettings& settings,
                                                        const std::vector<std::string>& command, ProcessOptions options,
                                                        const std::function<bool()>& shouldCancel = {});

    /// What the interpreter at `python` needs besides /usr: its installation prefix when it lives elsewhere
    /// (a pyenv or /opt Python), nothing for Debian's.
    [[nodiscard]] static std::vector<std::filesystem::path> interpreterMounts(const std::filesystem::path& python);

    /// The descriptor the seccomp filter is handed to bubblewrap on.
    static constexpr int kSeccompFd = 4;
};

} // namespace kl::core
