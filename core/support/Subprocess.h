#pragma once

#include "common/Error.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

/// Bytes the parent hands to the child on one of its descriptors (a pipe holding `data`, then end of file).
/// At most 64 KiB: the pipe is filled before the child starts.
struct ChildInput {
    int fd = 0;
    std::string data;
};

/// An open descriptor of the parent that the child gets as `childFd`.
struct PassedFd {
    int parentFd = -1;
    int childFd = -1;
};

/// Limits and plumbing applied to a child process before it runs any of its own code. Every descriptor the
/// child gets is listed here (0 is /dev/null unless an input takes it, 1 and 2 are the captured pipes); all
/// others are closed before exec.
struct ProcessOptions {
    std::chrono::milliseconds wallClockLimit{60'000}; ///< hard kill of the child and its process group
    int cpuSeconds = 0;                               ///< RLIMIT_CPU, 0 = unlimited
    long memoryMegabytes = 0;                         ///< RLIMIT_AS, 0 = unlimited
    long fileSizeMegabytes = 0;                       ///< RLIMIT_FSIZE, 0 = unlimited
    bool isolateNetwork = true;                       ///< private network namespace when the system allows it
    std::filesystem::path workingDirectory;           ///< empty = inherit
    /// The child's whole environment ("NAME=value"); nullopt = inherit the parent's.
    std::optional<std::vector<std::string>> environment;
    std::vector<ChildInput> inputs;
    std::vector<PassedFd> passedFds;
    /// Captured stdout and stderr keep this many bytes from the start and as many from the end; the middle is
    /// dropped and counted, so a child that floods its output cannot grow the caller's memory.
    std::size_t captureHeadBytes = 64 * 1024;
    std::size_t captureTailBytes = 64 * 1024;
};

/// One captured stream, bounded: the first `head` bytes, the last `tail` bytes, and how many in between were
/// dropped.
class CappedCapture {
public:
    CappedCapture(std::size_t head, std::size_t tail) : m_headLimit(head), m_tailLimit(tail) {}
    void append(const char* data, std::size_t size);
    /// Head and tail joined by a line saying how much was dropped (when anything was).
    [[nodiscard]] std::string text() const;
    [[nodiscard]] std::uint64_t totalBytes() const { return m_total; }
    [[nodiscard]] std::uint64_t droppedBytes() const;

private:
    std::size_t m_headLimit;
    std::size_t m_tailLimit;
    std::string m_head;
    std::string m_tail; ///< up to twice the tail limit, trimmed to the last m_tailLimit bytes on the way out
    std::uint64_t m_total = 0;
};

struct SubprocessResult {
    int exitCode = -1;      ///< exit status, or -1 when killed by a signal
    int signal = 0;         ///< the signal that ended the child, 0 when it exited
    bool timedOut = false;  ///< killed because the wall-clock limit passed
    bool cancelled = false; ///< killed because the caller asked
    bool networkIsolated = false;
    std::string out; ///< capped, see ProcessOptions::captureHeadBytes
    std::string err;
    std::uint64_t outBytes = 0; ///< everything the child wrote, kept or not
    std::uint64_t errBytes = 0;
    std::uint64_t droppedBytes = 0; ///< bytes of out and err not kept
};

/// Runs one program to completion with its output captured, in its own process group. The wall-clock limit
/// holds whatever the child does with its pipes: the pipes are polled with a time-out and the child is
/// checked without blocking on every turn, and at the limit (or on cancel) the process group gets SIGKILL.
/// When the child has ended but something it left holds the pipes open, the group is killed after a short
/// grace. `shouldCancel` is polled about ten times a second.
///
/// Responsible only for process mechanics; what the output means is the caller's business. A process that
/// leaves its process group (setsid) is out of reach here: run the child in a PID namespace (Sandbox.h)
/// when that matters.
[[nodiscard]] Expected<SubprocessResult> runSubprocess(const std::vector<std::string>& argv,
                                                       const ProcessOptions& options,
                                                       const std::function<bool()>& shouldCancel = {});

/// A folder under the system temporary directory (mode 0700) that is removed with everything in it on
/// destruction.
class TemporaryDirectory {
public:
    TemporaryDirectory();
    ~TemporaryDirectory();
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
    [[nodiscard]] bool valid() const { return !m_path.empty(); }

private:
    std::filesystem::path m_path;
};

} // namespace kl::core
