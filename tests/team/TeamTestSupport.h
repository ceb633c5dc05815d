#pragma once
// Reviews written the way separate reviewers would: the same task set, each file with one reviewer's scores
// and annotations, built straight through the repositories (no task folders needed).

#include "review/ReviewFile.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kl::core::team::test {

/// A fresh temporary folder per test, removed afterwards.
class Scratch {
public:
    Scratch();
    ~Scratch();
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    [[nodiscard]] std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

[[nodiscard]] std::string rubricJson();
/// A review at `path` by `reviewer` holding tasks "task-0" .. "task-{n-1}" with fixed files (so every file built
/// with the same n has the same tasks, matched by folder and content).
[[nodiscard]] ReviewFile reviewerFile(const std::string& path, const std::string& reviewer, int tasks);
/// The id of task "task-{index}" in `file`.
[[nodiscard]] std::int64_t taskId(ReviewFile& file, int index);
[[nodiscard]] std::string readBytes(const std::string& path);

} // namespace kl::core::team::test
