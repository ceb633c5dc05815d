#include "support/Subprocess.h"

#include <gtest/gtest.h>

#include <atomic>

using kl::core::runSubprocess;
using kl::core::SandboxOptions;

namespace {

TEST(Subprocess, CapturesOutputAndExitCode) {
    auto result = runSubprocess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, SandboxOptions{});
    ASSERT_TRUE(result);
    EXPECT_EQ(result->out, "out\n");
    EXPECT_EQ(result->err, "err\n");
    EXPECT_EQ(result->exitCode, 3);
    EXPECT_FALSE(result->timedOut);
}

TEST(Subprocess, KillsTheWholeProcessGroupAtTheWallClockLimit) {
    SandboxOptions options;
    options.wallClockLimit = std::chrono::milliseconds(300);
    // The grandchild keeps the pipe open: only a group kill lets the call return.
    auto result = runSubprocess({"/bin/sh", "-c", "sleep 60 & sleep 60"}, options);
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->timedOut);
    EXPECT_EQ(result->signal, SIGKILL);
}

TEST(Subprocess, CancelStopsTheChild) {
    std::atomic<int> polls{0};
    auto result = runSubprocess({"/bin/sleep", "60"}, SandboxOptions{}, [&] { return ++polls > 2; });
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->cancelled);
    EXPECT_FALSE(result->timedOut);
}

TEST(Subprocess, MemoryLimitStopsAHungryChild) {
    SandboxOptions options;
    options.memoryMegabytes = 200;
    auto result = runSubprocess({"/usr/bin/python3", "-c", "x = bytearray(1024 * 1024 * 1024)"}, options);
    ASSERT_TRUE(result);
    EXPECT_NE(result->exitCode, 0);
    EXPECT_NE(result->err.find("MemoryError"), std::string::npos) << result->err;
}

TEST(Subprocess, RunsInTheGivenWorkingDirectory) {
    kl::core::TemporaryDirectory dir;
    ASSERT_TRUE(dir.valid());
    SandboxOptions options;
    options.workingDirectory = dir.path();
    auto result = runSubprocess({"/bin/pwd"}, options);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->out, dir.path().string() + "\n");
}

TEST(Subprocess, IsolatedChildCannotReachTheNetwork) {
    const char* probe = "import socket\n"
                        "s = socket.socket()\n"
                        "s.settimeout(2)\n"
                        "try:\n"
                        "    s.connect(('127.0.0.1', 9))\n"
                        "    print('connected')\n"
                        "except OSError as e:\n"
                        "    print('refused', e.errno)\n";
    auto result = runSubprocess({"/usr/bin/python3", "-c", probe}, SandboxOptions{});
    ASSERT_TRUE(result);
    if (!result->networkIsolated) {
        GTEST_SKIP() << "this system does not allow private network namespaces";
    }
    // In a fresh namespace even loopback is down, so the connect fails with 'network unreachable'.
    EXPECT_NE(result->out.find("refused"), std::string::npos) << result->out;
}

TEST(Subprocess, MissingProgramExitsWith127) {
    auto result = runSubprocess({"/no/such/program"}, SandboxOptions{});
    ASSERT_TRUE(result);
    EXPECT_EQ(result->exitCode, 127);
}

TEST(TemporaryDirectory, IsRemovedWithItsContents) {
    std::filesystem::path path;
    {
        kl::core::TemporaryDirectory dir;
        path = dir.path();
        std::filesystem::create_directories(path / "a" / "b");
        ASSERT_TRUE(std::filesystem::exists(path / "a" / "b"));
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

} // namespace
