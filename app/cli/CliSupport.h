#pragma once

#include "common/Error.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kl::app {

/// Where to look for resources/hw: the source tree this binary was built from, then around the binary.
[[nodiscard]] std::vector<std::filesystem::path> resourceBases();

/// Writes `text` to `path` ('-' for stdout), atomically (core::writeFileAtomically): every file the CLI writes
/// goes through here or that. `what` names the content in the error ("the JSON result").
[[nodiscard]] Expected<void> writeText(const std::string& path, const std::string& text,
                                       const std::string& what = "the JSON result");

/// Writes `text` to `stream` through core::report::terminalText with line breaks kept: every report or message
/// that may hold user text (kernel and file names, task titles, IR diagnostics) is printed with it, so no escape
/// sequence from a file reaches the terminal.
void printText(std::FILE* stream, std::string_view text);

/// Prints the error on stderr (printText) and returns `code`, for `return fail(e, 1);`.
int fail(const Error& error, int code);

} // namespace kl::app
