#include "support/Subprocess.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kl::core {
namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
    int read = -1;
    int write = -1;
};

bool makePipe(Pipe& pipe) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        return false;
    }
    pipe = {fds[0], fds[1]};
    return true;
}

void closeFd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void execChild(const std::vector<char*>& argv, const SandboxOptions& options, const Pipe& out,
                            const Pipe& err, int statusFd) {
    ::setpgid(0, 0);
    ::dup2(out.write, STDOUT_FILENO);
    ::dup2(err.write, STDERR_FILENO);
    const int devNull = ::open("/dev/null", O_RDONLY);
    if (devNull >= 0) {
        ::dup2(devNull, STDIN_FILENO);
    }
    // A new network namespace has only a down loopback device: the child cannot reach any host.
    char isolated = 0;
    if (options.isolateNetwork && ::unshare(CLONE_NEWNET) == 0) {
        isolated = 1;
    }
    [[maybe_unused]] auto written = ::write(statusFd, &isolated, 1);
    if (options.cpuSeconds > 0) {
        rlimit limit{static_cast<rlim_t>(options.cpuSeconds), static_cast<rlim_t>(options.cpuSeconds + 1)};
        ::setrlimit(RLIMIT_CPU, &limit);
    }
    if (options.memoryMegabytes > 0) {
        const auto bytes = static_cast<rlim_t>(options.memoryMegabytes) * 1024 * 1024;
        rlimit limit{bytes, bytes};
        ::setrlimit(RLIMIT_AS, &limit);
    }
    if (!options.workingDirectory.empty() && ::chdir(options.workingDirectory.c_str()) != 0) {
        ::_exit(126);
    }
    ::execvp(argv[0], argv.data());
    ::_exit(127);
}

void drain(int& fd, std::string& sink) {
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
        sink.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        closeFd(fd);
    }
}

} // namespace

Expected<SubprocessResult> runSubprocess(const std::vector<std::string>& args, const SandboxOptions& options,
                                         const std::function<bool()>& shouldCancel) {
    if (args.empty()) {
        return makeError(ErrorCode::Internal, "runSubprocess called without a program");
    }
    Pipe out, err, status;
    if (!makePipe(out) || !makePipe(err) || !makePipe(status)) {
        return makeError(ErrorCode::Io, std::string("cannot create pipes: ") + std::strerror(errno));
    }
    std::vector<std::string> owned = args;
    std::vector<char*> argv;
    for (auto& a : owned) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);

    const pid_t pid = ::fork();
    if (pid < 0) {
        return makeError(ErrorCode::Io, std::string("cannot start a process: ") + std::strerror(errno));
    }
    if (pid == 0) {
        execChild(argv, options, out, err, status.write);
    }
    ::setpgid(pid, pid); // also done in the child; whichever runs first wins the race harmlessly
    closeFd(out.write);
    closeFd(err.write);
    closeFd(status.write);

    SubprocessResult result;
    char isolated = 0;
    if (::read(status.read, &isolated, 1) == 1) {
        result.networkIsolated = isolated != 0;
    }
    closeFd(status.read);

    const auto deadline = Clock::now() + options.wallClockLimit;
    while (out.read >= 0 || err.read >= 0) {
        pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
        const int ready = ::poll(fds, 2, 100);
        if (ready > 0) {
            if (out.read >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
                drain(out.read, result.out);
            }
            if (err.read >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
                drain(err.read, result.err);
            }
        }
        const bool late = Clock::now() >= deadline;
        const bool cancel = shouldCancel && shouldCancel();
        if (late || cancel) {
            ::kill(-pid, SIGKILL);
            result.timedOut = late;
            result.cancelled = cancel && !late;
            break;
        }
    }
    closeFd(out.read);
    closeFd(err.read);

    int wstatus = 0;
    while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(wstatus)) {
        result.exitCode = WEXITSTATUS(wstatus);
    } else if (WIFSIGNALED(wstatus)) {
        result.signal = WTERMSIG(wstatus);
    }
    return result;
}

TemporaryDirectory::TemporaryDirectory() {
    std::error_code ec;
    auto base = std::filesystem::temp_directory_path(ec);
    if (ec) {
        base = "/tmp";
    }
    std::string pattern = (base / "kernellens-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) {
        m_path = pattern;
    }
}

TemporaryDirectory::~TemporaryDirectory() {
    if (!m_path.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
}

} // namespace kl::core
