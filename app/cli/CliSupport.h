#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kl::app {

/// Where to look for resources/hw: the source tree this binary was built from, then around the binary.
[[nodiscard]] std::vector<std::filesystem::path> resourceBases();

/// Writes `text` to `path` ('-' for stdout); `what` names the content in the error ("the JSON result").
[[nodiscard]] Expected<void> writeText(const std::string& path, const std::string& text,
                                       const std::string& what = "the JSON result");

/// Prints the error on stderr and returns `code`, for `return fail(e, 1);`.
int fail(const Error& error, int code);

} // namespace kl::app
