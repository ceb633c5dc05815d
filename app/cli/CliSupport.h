#pragma once

#include "common/Error.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <initializer_list>
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

/// `-h`/`--help` anywhere in `args`: prints `usage` on stdout and returns true (the command then exits 0).
[[nodiscard]] bool printHelpIfAsked(const std::vector<std::string>& args, std::string_view usage);
/// A bad command line: the error, a blank line and `usage` on stderr; returns 2, the exit code for usage errors.
int usageError(const Error& error, std::string_view usage);
/// The short form for commands with long usage texts (review, batch): "error: MESSAGE" and a pointer to
/// `kernellens-cli COMMAND --help` on stderr; returns 2.
int usageError(std::string_view command, std::string_view message);

/// The commands' one parser for their own valued flags: each `FLAG VALUE` pair whose flag is in `valued` goes to
/// `take(flag, value)` (which may refuse the value), every other argument comes back in order (for
/// parseTraceArguments or the command's positional arguments). "FLAG needs a value" when the value is missing.
using TakeOption = std::function<Expected<void>(const std::string& flag, const std::string& value)>;
[[nodiscard]] Expected<std::vector<std::string>> takeOptions(const std::vector<std::string>& args,
                                                             std::initializer_list<std::string_view> valued,
                                                             const TakeOption& take);
/// `value` as a non-negative whole number, or "FLAG needs a non-negative whole number".
[[nodiscard]] Expected<std::size_t> parseCount(std::string_view flag, const std::string& value);

} // namespace kl::app
