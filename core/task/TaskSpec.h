#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kl::core {

struct TaskArgument {
    std::string name;
    std::vector<long long> shape;
    std::string dtype;
};

/// A task folder as described in docs/task-format.md: the NKI kernel under review, the CUDA kernel it
/// replaces, and how to launch it. Paths are absolute after loading.
struct TaskSpec {
    std::filesystem::path folder;
    std::string title;
    std::string description;
    std::filesystem::path kernelFile;
    std::string kernelName;
    std::filesystem::path cudaFile; ///< empty when the task has no CUDA source
    std::string cudaKernel;
    std::vector<TaskArgument> args;
    std::vector<int> grid{1};
    /// `hardware` as written in task.json; empty when not given (then the kernel's NKI API picks the profile,
    /// sim::chooseHardware). Use hardwareSpec() to run it.
    std::string hardware;
    /// `extra_files`: more files of the task the reviewer may read beside the kernel (helpers, a reference),
    /// absolute, each inside `folder`.
    std::vector<std::filesystem::path> extraFiles;

    /// `hardware` ready for sim::ProfileLocator: a profile name as is, a profile file resolved against `folder`.
    [[nodiscard]] std::string hardwareSpec() const;
};

/// Reads `folder/task.json`. Errors name the file and the offending key.
[[nodiscard]] Expected<TaskSpec> loadTaskSpec(const std::filesystem::path& folder);

/// Reads a whole text file; errors name the path.
[[nodiscard]] Expected<std::string> readTextFile(const std::filesystem::path& path);

} // namespace kl::core
