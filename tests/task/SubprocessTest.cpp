#include "support/Subprocess.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

using kl::core::ProcessOptions;
using kl::core::runSubprocess;

namespace {

TEST(Subprocess, CapturesOutputAndExitCode) {
    auto result = runSubprocess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, ProcessOptions{});
    ASSERT_TRUE(result);
    EXPECT_EQ(result->out, "out\n");
    EXPECT_EQ(result->err, "err\n");
    EXPECT_EQ(result->exitCode, 3);
    EXPECT_FALSE(result->timedOut);
}

TEST(Subprocess, KillsTheWholeProcessGroupAtTheWallClockLimit) {
    ProcessOptions options;
    options.wallClockLimit = std::chrono::milliseconds(300);
    // The grandchild keeps the pipe open: only a group kill lets the call return.
    auto result = runSubprocess({"/bin/sh", "-c", "sleep 60 & sleep 60"}, options);
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->timedOut);
    EXPECT_EQ(result->signal, SIGKILL);
}

TEST(Subprocess, CancelStopsTheChild) {
    std::atomic<int> polls{0};
    auto result = runSubprocess({"/bin/sleep", "60"}, ProcessOptions{}, [&] { return ++polls > 2; });
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->cancelled);
    EXPECT_FALSE(result->timedOut);
}

TEST(Subprocess, MemoryLimitStopsAHungryChild) {
    ProcessOptions options;
    options.memoryMegabytes = 200;
    auto result = runSubprocess({"/usr/bin/python3", "-c", "x = bytearray(1024 * 1024 * 1024)"}, options);
    ASSERT_TRUE(result);
    EXPECT_NE(result->exitCode, 0);
    EXPECT_NE(result->err.find("MemoryError"), std::string::npos) << result->err;
}

TEST(Subprocess, RunsInTheGivenWorkingDirectory) {
    kl::core::TemporaryDirectory dir;
    ASSERT_TRUE(dir.valid());
    ProcessOptions options;
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
    auto result = runSubprocess({"/usr/bin/python3", "-c", probe}, ProcessOptions{});
    ASSERT_TRUE(result);
    if (!result->networkIsolated) {
        GTEST_SKIP() << "this system does not allow private network namespaces";
    }
    // In a fresh namespace even loopback is down, so the connect fails with 'network unreachable'.
    EXPECT_NE(result->out.find("refused"), std::string::npos) << result->out;
}

TEST(Subprocess, MissingProgramExitsWith127) {
    auto result = runSubprocess({"/no/such/program"}, ProcessOptions{});
    ASSERT_TRUE(result);
    EXPECT_EQ(result->exitCode, 127);
}

TEST(Subprocess, TheDeadlineHoldsWhenTheChildClosesItsPipesAndSleeps) {
    ProcessOptions options;
    options.wallClockLimit = std::chrono::milliseconds(500);
    auto result = runSubprocess({"/bin/sh", "-c", "exec >&- 2>&-; trap '' ALRM XCPU TERM; sleep 60"}, options);
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->timedOut);
    EXPECT_EQ(result->signal, SIGKILL);
}

TEST(Subprocess, AGrandchildHoldingThePipesDoesNotKeepTheCallWaiting) {
    ProcessOptions options;
    options.wallClockLimit = std::chrono::seconds(60);
    auto result = runSubprocess({"/bin/sh", "-c", "sleep 60 & exit 4"}, options);
    ASSERT_TRUE(result);
    EXPECT_FALSE(result->timedOut);
    EXPECT_EQ(result->exitCode, 4);
}

TEST(Subprocess, CapturedOutputKeepsTheHeadAndTheTail) {
    ProcessOptions options;
    options.captureHeadBytes = 1000;
    options.captureTailBytes = 1000;
    auto result =
        runSubprocess({"/usr/bin/python3", "-c",
                       "import sys; sys.stdout.write('HEAD' + 'x' * 100000 + 'TAIL'); sys.stderr.write('e' * 50)"},
                      options);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->outBytes, 100008u);
    EXPECT_EQ(result->droppedBytes, 100008u - 2000u);
    EXPECT_TRUE(result->out.starts_with("HEAD"));
    EXPECT_TRUE(result->out.ends_with("TAIL"));
    EXPECT_NE(result->out.find("98008 bytes of output not kept"), std::string::npos);
    EXPECT_LT(result->out.size(), 2100u);
    EXPECT_EQ(result->err, std::string(50, 'e'));
}

TEST(Subprocess, InputsPassedDescriptorsAndTheEnvironmentReachTheChild) {
    kl::core::TemporaryDirectory dir;
    const auto file = dir.path() / "out.txt";
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ProcessOptions options;
    options.inputs.push_back({0, "from stdin\n"});
    options.inputs.push_back({5, "from five"});
    options.passedFds.push_back({fd, 3});
    options.environment = std::vector<std::string>{"ONLY=this"};
    auto result = runSubprocess({"/bin/sh", "-c",
                                 "read line; echo \"$line|$(cat <&5)|$ONLY|${HOME:-nohome}\"; echo written >&3; "
                                 "ls /proc/self/fd | wc -l"},
                                options);
    ::close(fd);
    ASSERT_TRUE(result);
    // 0, 1, 2, 3, 5, and the one ls opens to list them: nothing else leaked in.
    EXPECT_EQ(result->out, "from stdin|from five|this|nohome\n6\n");
    std::ifstream in(file);
    std::string written;
    std::getline(in, written);
    EXPECT_EQ(written, "written");
}

TEST(CappedCapture, CountsWhatItDrops) {
    kl::core::CappedCapture capture(4, 4);
    for (int i = 0; i < 1000; ++i) {
        capture.append("0123456789", 10);
    }
    EXPECT_EQ(capture.totalBytes(), 10000u);
    EXPECT_EQ(capture.droppedBytes(), 9992u);
    EXPECT_EQ(capture.text(), "0123\n[... 9992 bytes of output not kept ...]\n6789");
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
