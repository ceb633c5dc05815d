#pragma once

#include "common/Error.h"
#include "findings/Finding.h"
#include "ir/KernelIr.h"
#include "review/ReviewTypes.h"
#include "task/TaskSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace kl::core::findings {

/// The CUDA side of a migration task, for the migration rules: the CUDA source, the kernel function in it and
/// the CUDA<->NKI line links (from `# cuda:` comments, or whatever links a caller holds, e.g. a LinkSet's
/// visible ones).
struct MigrationSource {
    std::string cudaFile; ///< as shown in evidence: relative to the task folder
    std::string cudaText;
    std::string cudaKernel; ///< the __global__ function the task names; empty: every __global__ function
    std::string nkiFile;    ///< the task's kernel file, as named in the Kernel IR's `files`
    /// A link and the NKI file its NKI lines are in (as named in the IR's `files`).
    struct FileLink {
        std::string nkiFile;
        LineLink link;
    };
    /// Links from every NKI file of the kernel (a package's helper modules link CUDA lines too). A dock passes a
    /// LinkSet's visible links with `nkiFile`.
    std::vector<FileLink> links;
};

/// Adds to every NKI line of the evidence the CUDA lines linked to it (the narrowest link covering the line), so a
/// finding's evidence points into both sources. At most kMaxRanges lines per item.
void addLinkedCudaLines(std::vector<Finding>& findings, const MigrationSource& migration);

/// The migration source of a task folder: its CUDA file and the `# cuda:` links of the kernel's files (every file the
/// IR lists that can be found under the task folder). No CUDA file: nullopt. `ir` gives the name the kernel file has in
/// the IR.
[[nodiscard]] Expected<std::optional<MigrationSource>> loadMigrationSource(const TaskSpec& task,
                                                                           const sim::KernelIr& ir);

} // namespace kl::core::findings
