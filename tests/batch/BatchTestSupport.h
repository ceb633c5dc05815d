#pragma once
// Task folders written by the tests: a tiny kernel of our own, with something put before its body (a sleep,
// an endless loop, an exception) to make a task slow, hang or fail.

#include <filesystem>
#include <string>

namespace kl::core::batch::test {

class Scratch {
public:
    Scratch();
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

/// Writes DIR/NAME/{task.json,kernel.py}; `prelude` is Python run first in the kernel's body.
std::filesystem::path writeTask(const std::filesystem::path& dir, const std::string& name,
                                const std::string& prelude = "");

struct CliRun {
    int status = -1;
    std::string output;
};
/// Runs `kernellens-cli batch ARGS` and waits for it.
CliRun batchCli(const std::string& args);

} // namespace kl::core::batch::test
