#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace kl::core {

struct CompatArgument {
    std::string name;
    std::vector<long long> shape;
    std::string dtype;
};

/// One kernel entry point of a compatibility manifest. Paths are as written (relative to the run's root).
struct CompatEntry {
    std::string file;
    std::string kernel;
    std::vector<CompatArgument> args;
    std::vector<std::pair<std::string, std::string>> scalars; ///< NAME, Python literal text, in name order
    std::vector<long long> grid;                              ///< empty: the front end's default (1)
    std::string packageRoot;                                  ///< empty: none
    std::string hardware;                                     ///< empty: the run's --hw
    std::string shapeSource;
    std::string note;
};

/// A compatibility manifest (docs/compat.md): the entry points of a kernel repository with the shapes and
/// scalars to call them with. Format 1:
///
///   {"format": 1, "source": "repo@commit",
///    "entries": [{"file": "src/pkg/core/cumsum/cumsum.py", "kernel": "cumsum",
///                 "args": [{"name": "x", "shape": [64, 4, 1024], "dtype": "bfloat16"}],
///                 "scalars": {"axis": "-1"}, "grid": [1], "package_root": "src/pkg"}]}
///
/// Parsing checks every type; an error names the manifest, the entry index and the field.
struct CompatManifest {
    std::string source;
    std::vector<CompatEntry> entries;
};

/// `origin` is the manifest's name as the user gave it, used in every error message.
[[nodiscard]] Expected<CompatManifest> parseCompatManifest(const std::string& text, const std::string& origin);
[[nodiscard]] Expected<CompatManifest> loadCompatManifest(const std::filesystem::path& path);

} // namespace kl::core
