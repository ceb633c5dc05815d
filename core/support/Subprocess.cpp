#include "support/Subprocess.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace kl::core {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

/// After the child has ended, how long something it left behind may keep the pipes open before the group is
/// killed and the capture stops.
constexpr auto kOrphanPipeGrace = 250ms;
/// After SIGKILL, how long to wait for the kernel to report the child gone before giving up on reaping it.
constexpr auto kReapLimit = 5s;
constexpr std::size_t kMaxChildFds = 16;
constexpr std::size_t kMaxInputBytes = 64 * 1024;

void closeFd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

struct Pipe {
    int read = -1;
    int write = -1;
    ~Pipe() {
        closeFd(read);
        closeFd(write);
    }
};

bool makePipe(Pipe& pipe) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        return false;
    }
    pipe.read = fds[0];
    pipe.write = fds[1];
    return true;
}

/// Everything the child needs, prepared before fork: after fork the child only makes system calls.
struct ChildPlan {
    const char* program = nullptr;
    std::vector<char*> argv;
    std::vector<char*> envp;                               ///< empty: inherit
    std::array<std::pair<int, int>, kMaxChildFds> moves{}; ///< (parent fd, child fd)
    std::size_t moveCount = 0;
    int devNull = -1;
    int statusFd = -1;
    const ProcessOptions* options = nullptr;
};

void setLimit(int resource, rlim_t value) {
    rlimit limit{value, value};
    ::setrlimit(resource, &limit);
}

void closeAllBut(const ChildPlan& plan) {
    int highest = 2;
    for (std::size_t i = 0; i < plan.moveCount; ++i) {
        highest = std::max(highest, plan.moves[i].second);
    }
    for (int fd = 3; fd <= highest; ++fd) {
        bool keep = false;
        for (std::size_t i = 0; i < plan.moveCount; ++i) {
            keep = keep || plan.moves[i].second == fd;
        }
        if (!keep) {
            ::close(fd);
        }
    }
    if (::close_range(static_cast<unsigned>(highest + 1), ~0U, 0) != 0) {
        for (int fd = highest + 1; fd < 65536; ++fd) {
            ::close(fd);
        }
    }
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void execChild(const ChildPlan& plan) {
    const ProcessOptions& options = *plan.options;
    ::setpgid(0, 0);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    // A new network namespace has only a down loopback device: the child cannot reach any host.
    char isolated = 0;
    if (options.isolateNetwork && ::unshare(CLONE_NEWNET) == 0) {
        isolated = 1;
    }
    [[maybe_unused]] auto written = ::write(plan.statusFd, &isolated, 1);
    // Lift every source above the highest target first, so that no dup2 below overwrites a source.
    int highest = STDERR_FILENO;
    for (std::size_t i = 0; i < plan.moveCount; ++i) {
        highest = std::max(highest, plan.moves[i].second);
    }
    std::array<int, kMaxChildFds> lifted{};
    for (std::size_t i = 0; i < plan.moveCount; ++i) {
        lifted[i] = ::fcntl(plan.moves[i].first, F_DUPFD, highest + 1);
    }
    const int devNull = plan.devNull >= 0 ? ::fcntl(plan.devNull, F_DUPFD, highest + 1) : -1;
    bool stdinGiven = false;
    for (std::size_t i = 0; i < plan.moveCount; ++i) {
        if (lifted[i] < 0 || ::dup2(lifted[i], plan.moves[i].second) < 0) {
            ::_exit(126);
        }
        stdinGiven = stdinGiven || plan.moves[i].second == STDIN_FILENO;
    }
    if (!stdinGiven && devNull >= 0) {
        ::dup2(devNull, STDIN_FILENO);
    }
    closeAllBut(plan);
    if (options.cpuSeconds > 0) {
        rlimit limit{static_cast<rlim_t>(options.cpuSeconds), static_cast<rlim_t>(options.cpuSeconds + 1)};
        ::setrlimit(RLIMIT_CPU, &limit);
    }
    if (options.memoryMegabytes > 0) {
        setLimit(RLIMIT_AS, static_cast<rlim_t>(options.memoryMegabytes) * 1024 * 1024);
    }
    if (options.fileSizeMegabytes > 0) {
        setLimit(RLIMIT_FSIZE, static_cast<rlim_t>(options.fileSizeMegabytes) * 1024 * 1024);
    }
    if (!options.workingDirectory.empty() && ::chdir(options.workingDirectory.c_str()) != 0) {
        ::_exit(126);
    }
    if (plan.envp.empty()) {
        ::execv(plan.program, plan.argv.data());
    } else {
        ::execve(plan.program, plan.argv.data(), plan.envp.data());
    }
    ::_exit(127);
}

/// The program's path as execv wants it: names without a slash are looked up on the parent's PATH.
std::string resolveProgram(const std::string& name) {
    if (name.find('/') != std::string::npos) {
        return name;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, end - start);
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        start = end + 1;
    }
    return name; // execv fails and the child exits with 127, as a shell would
}

/// Reads what is there; closes `fd` at end of file or on a hard error.
void drain(int& fd, CappedCapture& sink) {
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
        sink.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        closeFd(fd);
    }
}

/// Reaps the child if it has ended; fills exitCode/signal. `reap` false leaves it a zombie (its pid, and so its
/// process group id, stay reserved: killing the group later cannot hit a stranger).
bool childEnded(pid_t pid, SubprocessResult& result, bool reap) {
    siginfo_t info{};
    const int flags = WEXITED | WNOHANG | (reap ? 0 : WNOWAIT);
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, flags) != 0 || info.si_pid == 0) {
        return false;
    }
    if (info.si_code == CLD_EXITED) {
        result.exitCode = info.si_status;
        result.signal = 0;
    } else {
        result.exitCode = -1;
        result.signal = info.si_status;
    }
    return true;
}

void killTree(pid_t pid) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
}

/// Creates the pipes behind ChildInput: filled and closed for writing before the child starts.
Expected<std::vector<int>> prepareInputs(const std::vector<ChildInput>& inputs) {
    std::vector<int> readEnds;
    for (const ChildInput& input : inputs) {
        Pipe pipe;
        if (input.data.size() > kMaxInputBytes || !makePipe(pipe)) {
            for (int& fd : readEnds) {
                closeFd(fd);
            }
            return makeError(ErrorCode::Internal, "cannot hand data to a child process");
        }
        ::fcntl(pipe.write, F_SETFL, O_NONBLOCK);
        const ssize_t n = input.data.empty() ? 0 : ::write(pipe.write, input.data.data(), input.data.size());
        if (n != static_cast<ssize_t>(input.data.size())) {
            for (int& fd : readEnds) {
                closeFd(fd);
            }
            return makeError(ErrorCode::Io, "cannot hand data to a child process: the pipe is too small");
        }
        readEnds.push_back(pipe.read);
        pipe.read = -1;
    }
    return readEnds;
}

struct Capture {
    CappedCapture out;
    CappedCapture err;
};

/// Polls the pipes until the child and everything holding its pipes is done, the deadline passes, or the
/// caller cancels. Never blocks longer than ~100 ms at a time.
void supervise(pid_t pid, Pipe& out, Pipe& err, const ProcessOptions& options,
               const std::function<bool()>& shouldCancel, SubprocessResult& result, Capture& capture) {
    const auto deadline = Clock::now() + options.wallClockLimit;
    int pidFd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    bool ended = false;
    Clock::time_point endedAt;
    for (;;) {
        const auto now = Clock::now();
        auto wait = std::min<Clock::duration>(100ms, deadline - now);
        if (ended) {
            wait = std::min<Clock::duration>(wait, endedAt + kOrphanPipeGrace - now);
        } else if (pidFd < 0 && out.read < 0 && err.read < 0) {
            wait = std::min<Clock::duration>(wait, 5ms); // no pidfd: check for the exit often
        }
        pollfd fds[3] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}, {ended ? -1 : pidFd, POLLIN, 0}};
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(std::max<Clock::duration>(wait, 0ms));
        if (::poll(fds, 3, static_cast<int>(ms.count())) > 0) {
            if (out.read >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
                drain(out.read, capture.out);
            }
            if (err.read >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
                drain(err.read, capture.err);
            }
        }
        if (!ended && childEnded(pid, result, /*reap=*/false)) {
            ended = true;
            endedAt = Clock::now();
        }
        if (ended && out.read < 0 && err.read < 0) {
            break;
        }
        const bool late = Clock::now() >= deadline;
        const bool cancel = !late && shouldCancel && shouldCancel();
        if (late || cancel || (ended && Clock::now() >= endedAt + kOrphanPipeGrace)) {
            killTree(pid); // the group of a zombie leader: its id cannot have been reused
            result.timedOut = late && !ended;
            result.cancelled = cancel && !ended;
            break;
        }
    }
    closeFd(pidFd);
}

} // namespace

void CappedCapture::append(const char* data, std::size_t size) {
    m_total += size;
    const std::size_t toHead = std::min(size, m_headLimit - std::min(m_headLimit, m_head.size()));
    m_head.append(data, toHead);
    data += toHead;
    size -= toHead;
    if (size == 0 || m_tailLimit == 0) {
        return;
    }
    if (size >= m_tailLimit) {
        m_tail.assign(data + size - m_tailLimit, m_tailLimit);
        return;
    }
    m_tail.append(data, size);
    if (m_tail.size() > 2 * m_tailLimit) {
        m_tail.erase(0, m_tail.size() - m_tailLimit);
    }
}

std::uint64_t CappedCapture::droppedBytes() const {
    const std::uint64_t kept = m_head.size() + std::min(m_tail.size(), m_tailLimit);
    return m_total - kept;
}

std::string CappedCapture::text() const {
    const std::size_t tailKept = std::min(m_tail.size(), m_tailLimit);
    std::string text = m_head;
    if (const std::uint64_t dropped = droppedBytes(); dropped > 0) {
        text += fmt::format("\n[... {} bytes of output not kept ...]\n", dropped);
    }
    text.append(m_tail, m_tail.size() - tailKept, tailKept);
    return text;
}

Expected<SubprocessResult> runSubprocess(const std::vector<std::string>& args, const ProcessOptions& options,
                                         const std::function<bool()>& shouldCancel) {
    if (args.empty()) {
        return makeError(ErrorCode::Internal, "runSubprocess called without a program");
    }
    if (options.inputs.size() + options.passedFds.size() + 2 > kMaxChildFds) {
        return makeError(ErrorCode::Internal, "runSubprocess: too many descriptors for the child");
    }
    Pipe out, err, status;
    if (!makePipe(out) || !makePipe(err) || !makePipe(status)) {
        return makeError(ErrorCode::Io, std::string("cannot create pipes: ") + std::strerror(errno));
    }
    auto inputFds = prepareInputs(options.inputs);
    KL_TRY(inputFds);
    ChildPlan plan;
    plan.options = &options;
    plan.statusFd = status.write;
    plan.devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    plan.moves[plan.moveCount++] = {out.write, STDOUT_FILENO};
    plan.moves[plan.moveCount++] = {err.write, STDERR_FILENO};
    for (std::size_t i = 0; i < inputFds->size(); ++i) {
        plan.moves[plan.moveCount++] = {(*inputFds)[i], options.inputs[i].fd};
    }
    for (const PassedFd& passed : options.passedFds) {
        plan.moves[plan.moveCount++] = {passed.parentFd, passed.childFd};
    }
    const std::string program = resolveProgram(args[0]);
    plan.program = program.c_str();
    std::vector<std::string> owned = args;
    for (auto& a : owned) {
        plan.argv.push_back(a.data());
    }
    plan.argv.push_back(nullptr);
    std::vector<std::string> env = options.environment.value_or(std::vector<std::string>{});
    if (options.environment) {
        for (auto& e : env) {
            plan.envp.push_back(e.data());
        }
        plan.envp.push_back(nullptr);
    }

    const pid_t pid = ::fork();
    if (pid == 0) {
        execChild(plan);
    }
    const int forkErrno = errno;
    closeFd(plan.devNull);
    for (int& fd : *inputFds) {
        closeFd(fd);
    }
    closeFd(out.write);
    closeFd(err.write);
    closeFd(status.write);
    if (pid < 0) {
        return makeError(ErrorCode::Io, std::string("cannot start a process: ") + std::strerror(forkErrno));
    }
    ::setpgid(pid, pid); // also done in the child; whichever runs first wins the race harmlessly

    SubprocessResult result;
    char isolated = 0;
    if (::read(status.read, &isolated, 1) == 1) {
        result.networkIsolated = isolated != 0;
    }
    closeFd(status.read);

    Capture capture{{options.captureHeadBytes, options.captureTailBytes},
                    {options.captureHeadBytes, options.captureTailBytes}};
    supervise(pid, out, err, options, shouldCancel, result, capture);
    const auto giveUp = Clock::now() + kReapLimit;
    while (!childEnded(pid, result, /*reap=*/true) && Clock::now() < giveUp) {
        std::this_thread::sleep_for(2ms);
    }
    result.out = capture.out.text();
    result.err = capture.err.text();
    result.outBytes = capture.out.totalBytes();
    result.errBytes = capture.err.totalBytes();
    result.droppedBytes = capture.out.droppedBytes() + capture.err.droppedBytes();
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
