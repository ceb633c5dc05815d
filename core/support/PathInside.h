#pragma once

#include <filesystem>

namespace kl::core {

/// Whether `path` is `folder` or lies below it, compared as written (lexically: no file system access, so make
/// both canonical first where links or ".." may lead elsewhere).
[[nodiscard]] inline bool isInsideOrSame(const std::filesystem::path& path, const std::filesystem::path& folder) {
    const auto rel = path.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}

} // namespace kl::core
