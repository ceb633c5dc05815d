#include "FuzzHarness.h"

#include <fmt/format.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <optional>

namespace kl::fuzz {

namespace {

/// What a child tells its parent, in memory both see.
struct Shared {
    std::atomic<std::uint64_t> current{0};  ///< the case running (or about to)
    std::atomic<std::uint64_t> finished{0}; ///< cases done, counting from the batch's first
    char message[1024] = {};
};

constexpr int kExceptionExit = 3;

class SharedPage {
public:
    SharedPage() {
        void* p = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            std::perror("kl_fuzz: mmap");
            std::abort(); // the harness itself cannot run: a bug in the test setup, not a finding
        }
        m_shared = new (p) Shared;
    }
    ~SharedPage() { ::munmap(m_shared, sizeof(Shared)); }
    SharedPage(const SharedPage&) = delete;
    SharedPage& operator=(const SharedPage&) = delete;
    Shared* operator->() const { return m_shared; }
    Shared& get() const { return *m_shared; }

private:
    Shared* m_shared = nullptr;
};

void noteException(Shared& shared, const char* what) {
    std::snprintf(shared.message, sizeof shared.message, "exception: %s", what);
}

/// Runs in the child: cases [first, last) with an alarm per case; never returns.
[[noreturn]] void childLoop(Shared& shared, const std::function<std::string(std::uint64_t)>& inputOf,
                            const Target& target, std::uint64_t first, std::uint64_t last, const RunOptions& options) {
    if (options.memoryBytes > 0) {
        const rlimit limit{options.memoryBytes, options.memoryBytes};
        ::setrlimit(RLIMIT_AS, &limit);
    }
    if (options.stackBytes > 0) {
        // Smaller than the usual 8 MiB: recursion on input depth shows up sooner (and worker threads have less).
        const rlimit limit{options.stackBytes, options.stackBytes};
        ::setrlimit(RLIMIT_STACK, &limit);
    }
    std::signal(SIGALRM, SIG_DFL);
    for (std::uint64_t i = first; i < last; ++i) {
        shared.current.store(i);
        const std::string input = inputOf(i);
        ::alarm(options.caseSeconds);
        try {
            target(input);
        } catch (const std::exception& e) {
            noteException(shared, e.what());
            ::_exit(kExceptionExit);
        } catch (...) {
            noteException(shared, "not derived from std::exception");
            ::_exit(kExceptionExit);
        }
        ::alarm(0);
        shared.finished.store(i + 1 - first);
    }
    ::_exit(0);
}

std::string describeStatus(int status, const Shared& shared, unsigned caseSeconds) {
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        if (sig == SIGALRM) {
            return fmt::format("hang: over {} s", caseSeconds);
        }
        return fmt::format("crash: signal {} ({})", sig, ::strsignal(sig));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExceptionExit) {
        return shared.message;
    }
    return fmt::format("exit status {}", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/// Forks a child for cases [first, last); returns the index of the failing case and what failed, or
/// nothing when every case passed.
std::optional<std::pair<std::uint64_t, std::string>> runBatch(const std::function<std::string(std::uint64_t)>& inputOf,
                                                              const Target& target, std::uint64_t first,
                                                              std::uint64_t last, const RunOptions& options) {
    SharedPage shared;
    shared->current.store(first);
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        return std::pair{first, std::string("fork failed")};
    }
    if (child == 0) {
        childLoop(shared.get(), inputOf, target, first, last, options);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            return std::pair{first, std::string("waitpid failed")};
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return std::nullopt;
    }
    return std::pair{shared->current.load(), describeStatus(status, shared.get(), options.caseSeconds)};
}

} // namespace

RunReport runFuzz(const Target& target, const std::vector<std::string>& seeds, const Mutator& mutator,
                  const RunOptions& options) {
    RunReport report;
    const auto inputOf = [&](std::uint64_t i) { return makeCase(seeds, mutator, options.seed, i); };
    const auto started = std::chrono::steady_clock::now();
    const auto outOfTime = [&] {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
        return options.seconds > 0 && elapsed.count() >= options.seconds;
    };
    const std::uint64_t end = options.firstCase + options.cases;
    std::uint64_t next = options.firstCase;
    while (next < end && !outOfTime()) {
        const std::uint64_t last = std::min(end, next + options.batch);
        const auto failed = runBatch(inputOf, target, next, last, options);
        if (!failed) {
            report.cases += last - next;
            next = last;
            continue;
        }
        const auto [index, what] = *failed;
        Failure f{index, what, {}};
        if (!options.failureDir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(options.failureDir, ec);
            f.savedInput = options.failureDir / fmt::format("case-{}{}", index, options.extension);
            const std::string input = inputOf(index);
            std::ofstream(f.savedInput, std::ios::binary)
                .write(input.data(), static_cast<std::streamsize>(input.size()));
        }
        report.failures.push_back(std::move(f));
        report.cases += index + 1 - next;
        next = index + 1;
    }
    return report;
}

std::string runGuarded(const Target& target, std::string_view input, unsigned caseSeconds) {
    RunOptions options;
    options.caseSeconds = caseSeconds;
    const std::string copy(input);
    const auto failed = runBatch([&](std::uint64_t) { return copy; }, target, 0, 1, options);
    return failed ? failed->second : std::string();
}

} // namespace kl::fuzz
