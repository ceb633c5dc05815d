// Kills a process that is saving annotations with SIGKILL at random (seeded) moments and checks,
// after every kill, that the review still opens and holds every annotation whose save had returned.
#include "TestSupport.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <poll.h>
#include <random>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace kl::core {
namespace {

constexpr unsigned kSeed = 20261130;

struct Child {
    pid_t pid = -1;
    int out = -1;
};

Child spawnWriter(const std::string& review, int seed, bool printEarly) {
    int fds[2];
    if (::pipe(fds) != 0) {
        return {};
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        ::close(fds[1]);
        const std::string seedText = std::to_string(seed);
        ::execl(KL_CRASH_WRITER, KL_CRASH_WRITER, review.c_str(), "1000000", seedText.c_str(),
                printEarly ? "--print-early" : nullptr, nullptr);
        ::_exit(127);
    }
    ::close(fds[1]);
    return {pid, fds[0]};
}

/// Reads whatever the child printed until `deadline`, appending to `buffer`; false once EOF.
bool readUntil(int fd, std::string& buffer, std::chrono::steady_clock::time_point deadline) {
    char chunk[4096];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, left.count())));
        if (ready <= 0) {
            return true; // deadline reached
        }
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n <= 0) {
            return false;
        }
        buffer.append(chunk, static_cast<std::size_t>(n));
    }
}

/// Ids on complete lines: a line is only complete once the child's printf after the save finished.
std::vector<std::int64_t> confirmedIds(const std::string& output) {
    std::vector<std::int64_t> ids;
    std::size_t start = 0;
    for (std::size_t nl = output.find('\n'); nl != std::string::npos; nl = output.find('\n', start)) {
        ids.push_back(std::stoll(output.substr(start, nl - start)));
        start = nl + 1;
    }
    return ids;
}

struct CrashStats {
    int killedWhileRunning = 0;
    int killsAfterSomeSaves = 0;
    std::size_t confirmed = 0;
    std::vector<std::int64_t> lost; ///< confirmed ids missing after a kill
    std::vector<std::string> openErrors;
};

/// Runs `kills` rounds of spawn, wait a random moment, SIGKILL, reopen and check.
CrashStats killRepeatedly(const std::string& path, int kills, bool printEarly) {
    std::mt19937 rng(kSeed);
    std::uniform_int_distribution<int> shortDelay(0, 10000), longDelay(0, 30000); // microseconds
    std::bernoulli_distribution early(0.2);
    std::set<std::int64_t> confirmed;
    CrashStats stats;
    for (int round = 0; round < kills; ++round) {
        Child child = spawnWriter(path, round + 1, printEarly);
        if (child.pid <= 0) {
            stats.openErrors.push_back("fork failed");
            return stats;
        }
        // Most kills are timed from the first completed save, so they land among saves; the rest
        // from the spawn, so they also hit start-up (open, WAL recovery, migration check).
        std::string output;
        const auto now = std::chrono::steady_clock::now;
        if (early(rng)) {
            readUntil(child.out, output, now() + std::chrono::microseconds(shortDelay(rng)));
        } else {
            const auto giveUp = now() + std::chrono::seconds(5);
            while (output.find('\n') == std::string::npos && now() < giveUp &&
                   readUntil(child.out, output, now() + std::chrono::milliseconds(1))) {
            }
            readUntil(child.out, output, now() + std::chrono::microseconds(longDelay(rng)));
        }
        ::kill(child.pid, SIGKILL);
        int status = 0;
        ::waitpid(child.pid, &status, 0);
        while (readUntil(child.out, output, std::chrono::steady_clock::now())) {
        }
        ::close(child.out);
        stats.killedWhileRunning += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 1 : 0;
        const auto ids = confirmedIds(output);
        stats.killsAfterSomeSaves += ids.empty() ? 0 : 1;
        confirmed.insert(ids.begin(), ids.end());

        auto file = ReviewFile::open(path);
        if (!file) {
            stats.openErrors.push_back(fmt::format("round {}: {}", round, formatError(file.error())));
            continue;
        }
        auto all = file->annotations().list();
        std::set<std::int64_t> present;
        for (const Annotation& a : all.value_or(std::vector<Annotation>{})) {
            present.insert(a.id);
        }
        for (std::int64_t id : confirmed) {
            if (!present.contains(id)) {
                stats.lost.push_back(id);
                confirmed.erase(id); // report each loss once
                break;
            }
        }
    }
    stats.confirmed = confirmed.size();
    return stats;
}

std::string makeCrashReview(const test::TempDir& dir) {
    const std::string path = dir.file("crash.klreview");
    auto file = test::makeReview(path);
    EXPECT_TRUE(file.tasks().add("t", "T", {}));
    return path;
}

TEST(CrashTest, SigkillNeverLosesASavedAnnotation) {
    constexpr int kKills = 120;
    test::TempDir dir;
    const std::string path = makeCrashReview(dir);
    const CrashStats stats = killRepeatedly(path, kKills, false);
    std::printf("[crash] %d SIGKILLs (%d while running, %d after at least one save), %zu saves confirmed, %zu lost\n",
                kKills, stats.killedWhileRunning, stats.killsAfterSomeSaves, stats.confirmed, stats.lost.size());
    ::testing::Test::RecordProperty("kills", kKills);
    ::testing::Test::RecordProperty("confirmed_saves", static_cast<int>(stats.confirmed));
    EXPECT_TRUE(stats.openErrors.empty()) << stats.openErrors.front();
    EXPECT_TRUE(stats.lost.empty()) << "annotation " << stats.lost.front() << " was lost";
    EXPECT_GE(stats.killedWhileRunning, kKills * 9 / 10);
    EXPECT_GT(stats.killsAfterSomeSaves, kKills * 2 / 3); // most kills land while saves are going on
}

// The same harness against a writer that claims a save before making it must report losses:
// evidence that the test above can fail.
TEST(CrashTest, HarnessCatchesAWriterThatReportsTooEarly) {
    test::TempDir dir;
    const std::string path = makeCrashReview(dir);
    const CrashStats stats = killRepeatedly(path, 40, true);
    std::printf("[crash] early-printing writer: %zu losses detected in 40 kills\n", stats.lost.size());
    EXPECT_FALSE(stats.lost.empty());
}

} // namespace
} // namespace kl::core
