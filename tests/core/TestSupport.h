#pragma once

#include "review/ReviewFile.h"

#include <filesystem>
#include <string>

namespace kl::core::test {

/// A fresh temporary folder per test, removed afterwards.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] std::filesystem::path path() const { return m_path; }
    [[nodiscard]] std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

[[nodiscard]] std::string defaultRubricJson();
/// A new review at `path` with the default rubric and reviewer "alice"; aborts the test on failure.
[[nodiscard]] ReviewFile makeReview(const std::string& path);
/// Writes a task folder (task.json, kernel.py, kernel.cu) under `parent` and returns its path.
[[nodiscard]] std::string makeTaskFolder(const std::filesystem::path& parent, const std::string& name);
[[nodiscard]] std::string readBytes(const std::string& path);
void writeBytes(const std::string& path, const std::string& bytes);

} // namespace kl::core::test
