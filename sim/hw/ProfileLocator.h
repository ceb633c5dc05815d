#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace kl::sim {

/// Finds the folder with the bundled hardware profiles (resources/hw) and resolves a `--hw` argument.
/// Pure functions over given base folders so that tests can point them at a temporary tree; the CLI
/// passes the compile-time source folder and the executable's folder.
class ProfileLocator {
public:
    /// The first of, for each base in order: base/resources/hw, base/share/kernellens/hw, and the same
    /// under each parent of base (so a binary deep in a build tree finds the source tree's resources).
    [[nodiscard]] static Expected<std::filesystem::path>
    findHardwareDir(const std::vector<std::filesystem::path>& bases);
    /// `spec` is a profile name (one of kBundledProfiles, or any other <name>.json in the hardware folder) or a
    /// path to a .json file.
    [[nodiscard]] static Expected<std::filesystem::path> resolve(std::string_view spec,
                                                                 const std::vector<std::filesystem::path>& bases);
};

} // namespace kl::sim
