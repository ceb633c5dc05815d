#pragma once

#include "common/Error.h"
#include "rubric/Rubric.h"

#include <string>
#include <string_view>

namespace kl::core {

/// Reads rubric templates. Every problem becomes an `Error` naming the file, the line where the
/// JSON parser stopped, or the JSON path of the missing or malformed field ("areas[1].items[0].scale"),
/// so whoever edits a rubric by hand can fix it without reading code.
class RubricLoader {
public:
    [[nodiscard]] static Expected<Rubric> loadFile(const std::string& path);
    /// Parses rubric JSON; `sourceName` is used in error messages (a path, or "review file rubric").
    [[nodiscard]] static Expected<Rubric> parse(std::string_view json, const std::string& sourceName);
    /// Where the bundled default rubric (nki-migration.json) is: $KL_RESOURCE_DIR/rubrics, then the
    /// install tree beside the executable, then the source tree. Empty when none exists.
    [[nodiscard]] static std::string defaultRubricPath();
    [[nodiscard]] static Expected<std::string> readText(const std::string& path);
};

} // namespace kl::core
