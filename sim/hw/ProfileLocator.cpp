#include "hw/ProfileLocator.h"

#include "common/Try.h"
#include "hw/HardwareChoice.h"

#include <fmt/format.h>

namespace kl::sim {

namespace fs = std::filesystem;

Expected<fs::path> ProfileLocator::findHardwareDir(const std::vector<fs::path>& bases) {
    std::error_code ec;
    for (const fs::path& base : bases) {
        if (base.empty()) {
            continue;
        }
        for (fs::path dir = base;; dir = dir.parent_path()) {
            for (const fs::path& candidate : {dir / "resources" / "hw", dir / "share" / "kernellens" / "hw"}) {
                if (fs::is_directory(candidate, ec)) {
                    return candidate;
                }
            }
            if (dir == dir.parent_path() || dir.parent_path().empty()) {
                break;
            }
        }
    }
    std::string searched;
    for (const fs::path& base : bases) {
        searched += (searched.empty() ? "" : ", ") + base.string();
    }
    return makeError(ErrorCode::NotFound,
                     fmt::format("no resources/hw folder found from {}", searched.empty() ? "(nothing)" : searched), {},
                     0, "pass --hw PATH/TO/PROFILE.json");
}

Expected<fs::path> ProfileLocator::resolve(std::string_view spec, const std::vector<fs::path>& bases) {
    std::error_code ec;
    const fs::path asPath{std::string(spec)};
    if (asPath.extension() == ".json" || asPath.has_parent_path()) {
        if (fs::is_regular_file(asPath, ec)) {
            return asPath;
        }
        return makeError(ErrorCode::NotFound, "hardware profile file not found", asPath.string());
    }
    auto dir = findHardwareDir(bases);
    KL_TRY(dir);
    const fs::path file = *dir / (std::string(spec) + ".json");
    if (!fs::is_regular_file(file, ec)) {
        return makeError(ErrorCode::NotFound, fmt::format("unknown hardware profile '{}'", spec), file.string(), 0,
                         fmt::format("use {} or a path to a profile .json", bundledProfileList()));
    }
    return file;
}

} // namespace kl::sim
