// A review on a read-only file system opens read-only with a reason (not as "corrupted"), lists its tasks and
// refuses edits. The mount is made in a child process with its own mount namespace, so nothing outside the
// test sees it; where namespaces are not allowed (no root, no user namespaces) the test is skipped.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

namespace kl::core {
namespace {

constexpr int kSkip = 77;

/// Runs in the child: 0 when the read-only review behaves, 1 (with a message on stderr) when not.
int checkReadOnlyMount(const std::filesystem::path& mountPoint, const std::filesystem::path& copyFolder) {
    if (::unshare(CLONE_NEWNS) != 0 && ::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        return kSkip;
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", mountPoint.c_str(), "tmpfs", 0, "size=16m") != 0) {
        return kSkip;
    }
    const std::string path = (mountPoint / "r.klreview").string();
    {
        auto file = test::makeReview(path);
        if (!file.tasks().add("t", "T", {})) {
            std::fprintf(stderr, "cannot add a task before the remount\n");
            return 1;
        }
    }
    if (::mount(nullptr, mountPoint.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
        return kSkip;
    }
    auto file = ReviewFile::open(path);
    if (!file) {
        std::fprintf(stderr, "open failed: %s\n", formatError(file.error()).c_str());
        return 1;
    }
    auto tasks = file->tasks().list();
    const bool ok = file->readOnly() && file->readOnlyReason().find("read-only file system") != std::string::npos &&
                    tasks && tasks->size() == 1 && !file->tasks().add("u", "U", {});
    if (!ok) {
        std::fprintf(stderr, "read-only: %d, reason '%s', tasks listed: %d\n", file->readOnly(),
                     file->readOnlyReason().c_str(), tasks ? static_cast<int>(tasks->size()) : -1);
    }
    if (!ok) {
        return 1;
    }
    // The way to edit it: a copy somewhere writable, which opens writable with the same tasks.
    const std::string copyPath = (copyFolder / "copy.klreview").string();
    if (auto saved = file->saveCopy(copyPath); !saved) {
        std::fprintf(stderr, "save copy failed: %s\n", formatError(saved.error()).c_str());
        return 1;
    }
    auto copy = ReviewFile::open(copyPath);
    if (!copy || copy->readOnly() || !copy->tasks().add("u", "U", {})) {
        std::fprintf(stderr, "the copy does not open writable\n");
        return 1;
    }
    auto copied = copy->tasks().list();
    return copied && copied->size() == 2 ? 0 : 1;
}

TEST(ReadOnlyReview, OnAReadOnlyMountOpensReadOnlyWithReason) {
    test::TempDir dir;
    test::TempDir copyFolder;
    std::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::_exit(checkReadOnlyMount(dir.path(), copyFolder.path()));
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died with signal " << WTERMSIG(status);
    if (WEXITSTATUS(status) == kSkip) {
        GTEST_SKIP() << "cannot make a private mount here (needs root or user namespaces)";
    }
    EXPECT_EQ(WEXITSTATUS(status), 0) << "see the child's message above";
}

} // namespace
} // namespace kl::core
