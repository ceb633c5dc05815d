#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string_view>

namespace kl::core {

/// Writes `bytes` to a new file beside `path` (owner-only when `privateToOwner`), flushes it to disk and renames
/// it over `path`: readers see the old file or the new one, never half of either, and a failed write leaves
/// nothing behind. The folder must exist. `what` names the content in the error ("cannot write the report").
[[nodiscard]] Expected<void> writeFileAtomically(const std::filesystem::path& path, std::string_view bytes,
                                                 bool privateToOwner = false, std::string_view what = "the file");

} // namespace kl::core
