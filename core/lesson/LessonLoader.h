#pragma once

#include "common/Error.h"
#include "lesson/Lesson.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace kl::core {

/// Reads lesson files (docs/lessons.md). Every failure is a message a lesson author can act on: a JSON
/// syntax error gives file:line, a missing or mistyped field is named by its path (`steps[2].anchors.task`),
/// an example task that does not exist under `examplesDir` is named with the folders that do.
/// Profile field overrides are checked against the what-if fields (core/whatif).
class LessonLoader {
public:
    explicit LessonLoader(std::filesystem::path examplesDir);

    [[nodiscard]] Expected<Lesson> loadFile(const std::filesystem::path& path) const;
    [[nodiscard]] Expected<Lesson> loadString(std::string_view json, std::string_view origin) const;

    /// Every *.json in `folder`, sorted by file name; broken files go to `errors` instead.
    [[nodiscard]] std::vector<Lesson> loadFolder(const std::filesystem::path& folder,
                                                 std::vector<Error>* errors = nullptr) const;

private:
    std::filesystem::path m_examplesDir;
};

/// resources/lessons under the data root.
[[nodiscard]] std::filesystem::path lessonsDir();

} // namespace kl::core
