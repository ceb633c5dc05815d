// The sandbox's own mechanics, below the front end: the PID namespace takes setsid'd orphans down with it, the
// seccomp filter refuses processes and sockets but not threads, and a machine without bubblewrap is refused
// unless the request allows running unsandboxed.
#include "SandboxTestSupport.h"

#include "trace/Sandbox.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using kl::core::ProcessOptions;
using kl::core::Sandbox;
using kl::core::SandboxSettings;
using kl::test::HostileWorkspace;
using kl::test::Privilege;
using namespace std::chrono_literals;

std::uintmax_t sizeOf(const fs::path& path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    return ec ? 0 : size;
}

void writeExecutable(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
    fs::permissions(path, fs::perms(0755));
}

/// A bwrap in `dir` that cannot build a sandbox: it says so as bubblewrap does, and fails.
fs::path writeFailingBwrap(const fs::path& dir) {
    const fs::path fake = dir / "bwrap";
    writeExecutable(fake, "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n");
    return fake;
}

class SandboxMechanics : public ::testing::TestWithParam<Privilege> {
protected:
    void SetUp() override {
        const auto status = Sandbox::status();
        ASSERT_TRUE(status.available) << status.problem << "\n" << status.hint;
    }

    /// Runs `script` with /bin/sh in the sandbox (processes allowed) with a heartbeat file on descriptor 3;
    /// returns "<timedOut> <heartbeat bytes at return> <heartbeat bytes 400 ms later>".
    std::string heartbeat(const std::string& script, std::chrono::milliseconds limit) {
        const fs::path beat = ws.outsideDir() / "heartbeat";
        return kl::test::runAs(GetParam(), [&] {
            const int fd = ::open(beat.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
            SandboxSettings settings;
            settings.seccomp.denyProcesses = false;
            ProcessOptions options;
            options.wallClockLimit = limit;
            options.passedFds.push_back({fd, 3});
            auto result = Sandbox::run(Sandbox::status().bwrap, settings, {"/bin/sh", "-c", script}, options);
            ::close(fd);
            const auto atReturn = sizeOf(beat);
            std::this_thread::sleep_for(400ms);
            return std::to_string(result && result->timedOut) + " " + std::to_string(atReturn) + " " +
                   std::to_string(sizeOf(beat));
        });
    }

    HostileWorkspace ws;
};

constexpr const char* kOrphan = "setsid sh -c 'while :; do echo x >&3; sleep 0.05; done' & ";

TEST_P(SandboxMechanics, ASetsidOrphanDiesWhenTheCommandEnds) {
    const std::string seen = heartbeat(std::string(kOrphan) + "sleep 0.5; exit 0", 30s);
    unsigned timedOut = 9, atReturn = 0, later = 0;
    ASSERT_EQ(std::sscanf(seen.c_str(), "%u %u %u", &timedOut, &atReturn, &later), 3) << seen;
    EXPECT_EQ(timedOut, 0u);
    EXPECT_GT(atReturn, 0u) << "the orphan never ran, so this test proves nothing";
    EXPECT_EQ(later, atReturn) << "the orphan outlived the sandbox";
}

TEST_P(SandboxMechanics, ASetsidOrphanDiesAtTheDeadline) {
    const std::string seen = heartbeat(std::string(kOrphan) + "exec sleep 600", 1500ms);
    unsigned timedOut = 9, atReturn = 0, later = 0;
    ASSERT_EQ(std::sscanf(seen.c_str(), "%u %u %u", &timedOut, &atReturn, &later), 3) << seen;
    EXPECT_EQ(timedOut, 1u);
    EXPECT_GT(atReturn, 0u) << "the orphan never ran, so this test proves nothing";
    EXPECT_EQ(later, atReturn) << "the orphan outlived the deadline";
}

TEST_P(SandboxMechanics, TheFilterRefusesProcessesAndSocketsButNotThreads) {
    const std::string probe =
        "import ctypes, os, socket, threading\n"
        "def unshare():\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER\n"
        "        raise OSError(ctypes.get_errno(), 'unshare')\n"
        "t = threading.Thread(target=lambda: None); t.start(); t.join(); print('thread ok')\n"
        "for name, call in (('fork', os.fork), ('socket', socket.socket), ('unshare', unshare)):\n"
        "    try:\n"
        "        call(); print(name, 'allowed')\n"
        "    except PermissionError:\n"
        "        print(name, 'denied')\n";
    const std::string out = kl::test::runAs(GetParam(), [&] {
        auto result = Sandbox::run(Sandbox::status().bwrap, SandboxSettings{}, {"/usr/bin/python3", "-S", "-c", probe},
                                   ProcessOptions{});
        return result ? result->out + result->err : result.error().message;
    });
    EXPECT_EQ(out, "thread ok\nfork denied\nsocket denied\nunshare denied\n");
}

INSTANTIATE_TEST_SUITE_P(Privileges, SandboxMechanics, ::testing::Values(Privilege::AsIs, Privilege::Nobody),
                         [](const auto& info) { return kl::test::privilegeName(info.param); });

TEST(Sandbox, TheCommandLineIsolatesEverything) {
    SandboxSettings settings;
    settings.readOnly = {"/srv/tasks/t1"};
    const auto argv = Sandbox::command("/usr/bin/bwrap", settings, 4, {"/usr/bin/python3", "x.py"});
    const auto has = [&](const std::vector<std::string>& seq) {
        return std::search(argv.begin(), argv.end(), seq.begin(), seq.end()) != argv.end();
    };
    for (const char* flag : {"--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                             "--disable-userns", "--die-with-parent", "--new-session", "--clearenv"}) {
        EXPECT_TRUE(has({flag})) << flag;
    }
    EXPECT_TRUE(has({"--cap-drop", "ALL"}));
    EXPECT_TRUE(has({"--seccomp", "4"}));
    EXPECT_TRUE(has({"--ro-bind", "/srv/tasks/t1", "/srv/tasks/t1"}));
    EXPECT_TRUE(has({"--", "/usr/bin/python3", "x.py"}));
    EXPECT_FALSE(has({"--bind"})) << "nothing of the host is writable";
    EXPECT_FALSE(has({"--ro-bind", "/home", "/home"}));
}

TEST(Sandbox, WithoutBubblewrapAKernelIsRefusedUnlessUnsandboxedRunsAreAllowed) {
    ::setenv("KL_BWRAP", "/nonexistent/bwrap", 1);
    const auto status = Sandbox::status();
    EXPECT_FALSE(status.available);
    EXPECT_NE(status.problem.find("bubblewrap (bwrap) is not installed"), std::string::npos) << status.problem;
    EXPECT_NE(status.hint.find("--no-sandbox"), std::string::npos) << status.hint;

    HostileWorkspace ws;
    const fs::path marker = ws.outsideDir() / "ran";
    auto request = ws.writeKernel("", "    open('" + marker.string() + "', 'w').write('ran')");
    auto refused = kl::core::runTrace(request);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, kl::ErrorCode::SandboxUnavailable);
    EXPECT_NE(refused.error().message.find("the kernel was not run"), std::string::npos);
    EXPECT_FALSE(fs::exists(marker));

    request.allowUnsandboxed = true;
    auto ran = kl::core::runTrace(request);
    ASSERT_TRUE(ran) << ran.error().message;
    EXPECT_FALSE(ran->sandboxed);
    EXPECT_NE(ran->warnings.find("WITHOUT the sandbox"), std::string::npos);
    EXPECT_TRUE(fs::exists(marker)); // it really ran, outside any sandbox
    ::unsetenv("KL_BWRAP");
}

TEST(Sandbox, ABwrapThatCannotStartIsReportedWithWhatItSaid) {
    HostileWorkspace ws;
    const fs::path fake = writeFailingBwrap(ws.root());
    ::setenv("KL_BWRAP", fake.c_str(), 1);
    const auto status = Sandbox::status();
    ::unsetenv("KL_BWRAP");
    EXPECT_FALSE(status.available);
    EXPECT_NE(status.problem.find("No permissions to creating new namespace"), std::string::npos) << status.problem;
    EXPECT_FALSE(status.hint.empty());
}

} // namespace

namespace {

/// A bwrap at `path` that appends a line to `log` each time it is started, then runs the real one.
void writeCountingBwrap(const fs::path& path, const fs::path& log) {
    writeExecutable(path,
                    "#!/bin/sh\necho started >> '" + log.string() + "'\nexec " + Sandbox::status().bwrap + " \"$@\"\n");
}

std::size_t lineCount(const fs::path& path) {
    std::ifstream in(path);
    return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
}

} // namespace

TEST(Sandbox, AWorkingSandboxIsNotSelfTestedBeforeTheRun) {
    ASSERT_TRUE(Sandbox::status().available) << Sandbox::status().problem;
    HostileWorkspace ws;
    const fs::path log = ws.outsideDir() / "bwrap-starts";
    const fs::path counting = ws.root() / "counting-bwrap";
    writeCountingBwrap(counting, log);
    ::setenv("KL_BWRAP", counting.c_str(), 1);
    auto request = ws.writeKernel("", "    pass");
    auto ran = kl::core::runTrace(request);
    ::unsetenv("KL_BWRAP");
    ASSERT_TRUE(ran) << ran.error().message;
    EXPECT_TRUE(ran->sandboxed);
    EXPECT_EQ(lineCount(log), 1u) << "the run itself is the sandbox's test: bwrap starts once";
}

TEST(Sandbox, ABwrapThatCannotStartRefusesTheRunWithWhatItSaid) {
    HostileWorkspace ws;
    const fs::path fake = writeFailingBwrap(ws.root());
    const fs::path marker = ws.outsideDir() / "ran";
    auto request = ws.writeKernel("", "    open('" + marker.string() + "', 'w').write('ran')");
    ::setenv("KL_BWRAP", fake.c_str(), 1);
    auto refused = kl::core::runTrace(request);
    request.allowUnsandboxed = true;
    auto ran = kl::core::runTrace(request);
    ::unsetenv("KL_BWRAP");
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, kl::ErrorCode::SandboxUnavailable);
    EXPECT_NE(refused.error().message.find("No permissions to creating new namespace"), std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("the kernel was not run"), std::string::npos);
    ASSERT_TRUE(ran) << ran.error().message;
    EXPECT_FALSE(ran->sandboxed);
    EXPECT_NE(ran->warnings.find("WITHOUT the sandbox"), std::string::npos) << ran->warnings;
    EXPECT_TRUE(fs::exists(marker)); // allowed to run unsandboxed, it really ran
}
