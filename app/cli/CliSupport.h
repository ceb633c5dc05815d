#pragma once

#include "common/Error.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
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

/// Prints the error on stderr (printText) and returns `code` (1 unless told), for `return fail(e);`.
int fail(const Error& error, int code = 1);

/// The exit code of a bad command line, whatever the command.
constexpr int kExitUsage = 2;

/// `-h`/`--help` anywhere in `args`: prints `usage` on stdout and returns true (the command then exits 0).
[[nodiscard]] bool printHelpIfAsked(const std::vector<std::string>& args, std::string_view usage);
/// A bad command line: the error, a blank line and `usage` on stderr; returns kExitUsage.
int usageError(const Error& error, std::string_view usage);
/// The start every command with one usage text shares: `-h`/`--help` prints `usage` (exit 0), a command line that
/// `parse` refuses is a usage error (exit 2), anything else goes to `run(options)`.
template <typename Parse, typename Run>
int runParsed(const std::vector<std::string>& args, std::string_view usage, Parse&& parse, Run&& run) {
    if (printHelpIfAsked(args, usage)) {
        return 0;
    }
    auto options = parse(args);
    if (!options) {
        return usageError(options.error(), usage);
    }
    return run(*options);
}
/// The short form for commands with long usage texts (review, batch): "error: MESSAGE" and a pointer to
/// `kernellens-cli COMMAND --help` on stderr; returns kExitUsage.
int usageError(std::string_view command, std::string_view message);

/// What a command accepts. Flags are written as typed ("--hw", "-o").
struct OptionSpec {
    std::vector<std::string_view> valued;        ///< flags followed by a value
    std::vector<std::string_view> switches = {}; ///< flags without a value
    /// The lists are the command's whole vocabulary (review, batch, report, compat): --FLAG=VALUE is accepted too,
    /// any other argument starting with '-' (but '-' alone, for stdout) is "unknown option '-x'" and a valued flag
    /// given twice is refused. Open (the default): every other argument is passed on, for parseTraceArguments.
    bool closed = false;
};

/// A command line read against an OptionSpec.
struct CommandLine {
    std::vector<std::string> positional;                    ///< every other argument, in order
    std::map<std::string, std::string, std::less<>> values; ///< by flag as typed: "--task"; the last one given
    std::set<std::string, std::less<>> switches;

    [[nodiscard]] std::optional<std::string> get(std::string_view flag) const;
    [[nodiscard]] bool has(std::string_view flag) const { return switches.contains(flag); }
};
/// The commands' one option parser: `args` against `spec`. "FLAG needs a value" when a value is missing; the
/// command then reads its options by name and checks their values itself.
[[nodiscard]] Expected<CommandLine> parseCommandLine(const std::vector<std::string>& args, const OptionSpec& spec);

/// `value` as a non-negative whole number, or "FLAG needs a non-negative whole number".
[[nodiscard]] Expected<std::size_t> parseCount(std::string_view flag, const std::string& value);
/// `text` as a whole number (sign allowed), or nothing.
[[nodiscard]] std::optional<std::int64_t> parseInteger(std::string_view text);

/// User text (titles, folders, annotation text, rubric ids) for one line of terminal output: no escape sequences,
/// no control characters, no line breaks (core::report::terminalText).
[[nodiscard]] std::string shown(std::string_view text);

} // namespace kl::app
