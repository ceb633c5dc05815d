#include "trace/Sandbox.h"

#include "support/PathInside.h"
#include "support/ResourcePaths.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <set>
#include <unistd.h>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

/// Top-level folders that are symbolic links into /usr on a merged-/usr system, bound as they are on the host.
constexpr const char* kSystemLinks[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
/// What the dynamic loader needs to find NumPy's BLAS (Debian picks it through /etc/alternatives).
constexpr const char* kLoaderFiles[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                        "/etc/alternatives"};

std::string findBwrap() {
    if (const char* env = std::getenv("KL_BWRAP"); env && *env) {
        return ::access(env, X_OK) == 0 ? std::string(env) : std::string();
    }
    for (const char* candidate : {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}) {
        if (::access(candidate, X_OK) == 0) {
            return candidate;
        }
    }
    return {};
}

/// The seccomp program for a policy, compiled once per process.
Expected<std::string> seccompProgram(const SeccompPolicy& policy) {
    static std::mutex mutex;
    static std::optional<Expected<std::string>> cached[2];
    std::lock_guard lock(mutex);
    auto& slot = cached[policy.denyProcesses ? 1 : 0];
    if (!slot) {
        slot = compileSeccompFilter(policy);
    }
    return *slot;
}

SandboxStatus selfTest(const std::string& bwrap) {
    SandboxStatus status;
    status.bwrap = bwrap;
    const fs::path python = pythonInterpreter();
    SandboxSettings settings;
    settings.readOnly = Sandbox::interpreterMounts(python);
    settings.environment = {{"PATH", "/usr/bin:/bin"}};
    ProcessOptions options;
    options.wallClockLimit = std::chrono::seconds(20);
    options.isolateNetwork = false;
    options.environment = std::vector<std::string>{"PATH=/usr/bin:/bin"};
    auto result = Sandbox::run(bwrap, settings, {python.string(), "-S", "-c", "pass"}, options);
    if (result && result->exitCode == 0) {
        status.available = true;
        return status;
    }
    const std::string why = !result            ? result.error().message
                            : result->timedOut ? std::string("it did not finish within 20 s")
                                               : result->err.substr(0, 2000);
    status.problem = fmt::format("bubblewrap ({}) cannot set up a sandbox here: {}", bwrap, why);
    status.hint = ::geteuid() == 0
                      ? "bubblewrap needs namespaces (a container may forbid them: allow unshare, or run KernelLens "
                        "outside it); or pass --no-sandbox for kernels you trust"
                      : "unprivileged user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1 "
                        "(Debian 11), user.max_user_namespaces > 0, kernel.apparmor_restrict_unprivileged_userns=0 "
                        "(Ubuntu 24.04), or a setuid bwrap; see docs/sandbox.md; or pass --no-sandbox for kernels "
                        "you trust";
    return status;
}

} // namespace

SandboxStatus Sandbox::status() {
    static std::mutex mutex;
    static std::set<std::string> working;
    const std::string bwrap = findBwrap();
    if (bwrap.empty()) {
        SandboxStatus status;
        status.problem = "bubblewrap (bwrap) is not installed, so kernels cannot run in an operating-system sandbox";
        status.hint = "install it (Debian and Ubuntu: apt install bubblewrap; scripts/setup.sh does), or pass "
                      "--no-sandbox to run a kernel you trust without one";
        return status;
    }
    {
        std::lock_guard lock(mutex);
        if (working.contains(bwrap)) {
            return SandboxStatus{true, bwrap, "", ""};
        }
    }
    SandboxStatus status = selfTest(bwrap);
    if (status.available) {
        std::lock_guard lock(mutex);
        working.insert(bwrap);
    }
    return status;
}

SandboxStatus Sandbox::presumed() {
    std::string bwrap = findBwrap();
    if (bwrap.empty()) {
        return status(); // says that bubblewrap is missing and what to do
    }
    return SandboxStatus{true, std::move(bwrap), "", ""};
}

std::vector<fs::path> Sandbox::interpreterMounts(const fs::path& python) {
    std::error_code ec;
    fs::path real = python;
    if (python.is_relative() && python.parent_path().empty()) {
        for (const char* dir : {"/usr/bin", "/usr/local/bin", "/bin"}) {
            if (fs::exists(fs::path(dir) / python, ec)) {
                real = fs::path(dir) / python;
                break;
            }
        }
    }
    real = fs::canonical(real, ec);
    if (ec || isInsideOrSame(real, "/usr")) {
        return {};
    }
    // <prefix>/bin/python3.x: the prefix holds the standard library (<prefix>/lib/python3.x) too.
    return {real.parent_path().parent_path()};
}

std::vector<std::string> Sandbox::command(const std::string& bwrap, const SandboxSettings& settings, int seccompFd,
                                          const std::vector<std::string>& command) {
    std::vector<std::string> argv = {bwrap};
    // Namespaces: as root too, a user namespace mapped to nobody, without capabilities or nested namespaces.
    argv.insert(argv.end(), {"--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"});
    argv.insert(argv.end(), {"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"});
    argv.insert(argv.end(), {"--unshare-cgroup-try", "--disable-userns", "--hostname", "kernellens"});
    argv.insert(argv.end(), {"--die-with-parent", "--new-session", "--clearenv"});
    for (const auto& [name, value] : settings.environment) {
        argv.insert(argv.end(), {"--setenv", name, value});
    }
    argv.insert(argv.end(), {"--ro-bind", "/usr", "/usr"});
    std::error_code ec;
    for (const char* link : kSystemLinks) {
        if (fs::is_symlink(link, ec)) {
            argv.insert(argv.end(), {"--symlink", fs::read_symlink(link, ec).string(), link});
        } else if (fs::is_directory(link, ec)) {
            argv.insert(argv.end(), {"--ro-bind", link, link});
        }
    }
    for (const char* file : kLoaderFiles) {
        argv.insert(argv.end(), {"--ro-bind-try", file, file});
    }
    argv.insert(argv.end(), {"--proc", "/proc", "--dev", "/dev", "--size",
                             std::to_string(settings.tmpMegabytes * 1024 * 1024), "--tmpfs", "/tmp"});
    for (const fs::path& path : settings.readOnly) {
        if (!isInsideOrSame(path, "/usr")) {
            argv.insert(argv.end(), {"--ro-bind", path.string(), path.string()});
        }
    }
    argv.insert(argv.end(), {"--chdir", settings.workingDirectory.string()});
    if (seccompFd >= 0) {
        argv.insert(argv.end(), {"--seccomp", std::to_string(seccompFd)});
    }
    argv.emplace_back("--");
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

Expected<SubprocessResult> Sandbox::run(const std::string& bwrap, const SandboxSettings& settings,
                                        const std::vector<std::string>& command, ProcessOptions options,
                                        const std::function<bool()>& shouldCancel) {
    auto program = seccompProgram(settings.seccomp);
    KL_TRY(program);
    options.inputs.push_back(ChildInput{kSeccompFd, *program});
    options.isolateNetwork = false; // bubblewrap makes the namespace
    if (!options.environment) {
        options.environment = std::vector<std::string>{"PATH=/usr/bin:/bin"};
    }
    return runSubprocess(Sandbox::command(bwrap, settings, kSeccompFd, command), options, shouldCancel);
}

} // namespace kl::core
