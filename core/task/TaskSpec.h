#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string>
#include <string_view>
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
    int lnc = 1; ///< `lnc`: physical NeuronCores per logical core the programs run on (1 or 2)
    /// `hardware` as written in task.json; empty when not given (then the kernel's NKI API picks the profile,
    /// sim::chooseHardware). Use hardwareSpec() to run it.
    std::string hardware;
    /// `extra_files`: more files of the task the reviewer may read beside the kernel (helpers, a reference),
    /// absolute, each inside `folder`.
    std::vector<std::filesystem::path> extraFiles;

    /// `hardware` ready for sim::ProfileLocator: a profile name as is, a profile file resolved against `folder`.
    [[nodiscard]] std::string hardwareSpec() const;
};

/// task.json as written (docs/task-format.md, "Limits" there gives the ranges): every field's JSON type and
/// every number's range checked, paths as written, absent fields empty. Reads nothing from the file system;
/// loadTaskSpec and the review's add-task both start from it. Errors name `file`, the field and what was
/// expected.
struct TaskJson {
    std::string title; ///< empty when not given
    std::string description;
    std::string kernelFile;
    std::string kernel;
    std::string cudaFile;
    std::string cudaKernel;
    std::vector<TaskArgument> args;
    bool hasArgs = false;
    std::vector<int> grid{1};
    int lnc = 1; ///< `lnc`: logical NeuronCore degree, 1 or 2
    std::string hardware;
    std::vector<std::string> extraFiles;
    std::string packageRoot;
};
[[nodiscard]] Expected<TaskJson> parseTaskJson(std::string_view text, const std::string& file);

/// Reads `folder/task.json`. Errors name the file and the offending key.
[[nodiscard]] Expected<TaskSpec> loadTaskSpec(const std::filesystem::path& folder);

/// Reads a whole text file; errors name the path.
[[nodiscard]] Expected<std::string> readTextFile(const std::filesystem::path& path);

} // namespace kl::core
