#pragma once

#include "common/Error.h"
#include "compat/CompatManifest.h"
#include "compat/CompatTypes.h"
#include "trace/KernelListing.h"

#include <functional>
#include <string>
#include <vector>

namespace kl::core {

/// Asks for a file's kernels (the front end's `--list-kernels` in the CLI; a fake in tests).
using KernelLister = std::function<Expected<std::vector<KernelInfo>>(const TraceRequest&)>;

/// Turns what `kernellens-cli compat` was given into the list of kernels to try, in order:
///  * a manifest: one job per entry (`file` and `package_root` relative to the root), optionally only the
///    entries at or under the `only` paths (also relative to the root);
///  * paths: a task folder runs as its task; a .py file is asked for its kernels, and those whose every
///    parameter has a default run with none, the others are skipped ("needs arguments: x, w"); any other
///    folder is walked in name order, its task folders running as tasks and its other .py files as above.
/// Problems with one file (a kernel list that failed, a broken task.json) become failed jobs; problems with
/// the request itself (a path that does not exist, a filter that matches nothing) are errors.
class CompatPlan {
public:
    [[nodiscard]] static Expected<std::vector<CompatJob>>
    fromManifest(const CompatManifest& manifest, const CompatSettings& settings, const std::vector<std::string>& only);
    [[nodiscard]] static Expected<std::vector<CompatJob>>
    fromPaths(const std::vector<std::string>& paths, const CompatSettings& settings, const KernelLister& lister);
    /// "x=64x4x1024:bfloat16", the front end's --arg text.
    [[nodiscard]] static std::string argSpec(const CompatArgument& arg);
};

} // namespace kl::core
