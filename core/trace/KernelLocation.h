#pragma once

#include "common/Error.h"
#include "trace/TraceRunner.h"

#include <filesystem>
#include <vector>

namespace kl::core {

/// Where a kernel's code lives, resolved the way the front end resolves it (symbolic links followed, packages
/// found by walking up `__init__.py` files), so that the sandbox can show it exactly that and nothing more.
struct KernelLocation {
    std::filesystem::path taskDir;     ///< canonical, or empty
    std::filesystem::path kernelFile;  ///< canonical, or empty for a task whose task.json does not name one
    std::filesystem::path packageRoot; ///< canonical request.packageRoot, or empty
    /// What the sandbox binds read-only: the task folder, the kernel's folder, its package root, the folder
    /// given by --package-root or task.json's package_root; without nested duplicates. A kernel file directly
    /// in the home folder or in / gets only itself bound, not the whole folder.
    std::vector<std::filesystem::path> readOnly;
};

[[nodiscard]] Expected<KernelLocation> locateKernel(const TraceRequest& request);

} // namespace kl::core
