#pragma once
// What every `kernellens-cli review` subcommand shares: its option parser, number parsing and the way it
// reports errors (text from files is shown without terminal control characters).

#include "common/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kl::app::review {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

/// User text (titles, folders, annotation text, rubric ids) for one line of terminal output: no escape
/// sequences, no control characters, no line breaks.
[[nodiscard]] std::string shown(std::string_view text);

/// Parsed "--flag value" / "--flag=value" options plus positionals, checked against what a subcommand accepts.
struct Options {
    std::vector<std::string> positional;
    std::map<std::string, std::string, std::less<>> values;
    std::set<std::string, std::less<>> flags;

    [[nodiscard]] std::optional<std::string> get(std::string_view name) const {
        auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional(it->second);
    }
};

[[nodiscard]] std::optional<Options> parseOptions(const std::vector<std::string>& args, std::size_t first,
                                                  const std::set<std::string_view>& valued,
                                                  const std::set<std::string_view>& boolean);
[[nodiscard]] std::optional<std::int64_t> parseInt(std::string_view text);
/// "A:B" or "A-B" (or a single "A" when `single` is allowed) into two integers.
[[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(std::string_view text, char sep,
                                                                              bool single);
/// Prints the error (file, line, hint) and returns kExitFailure.
int fail(const Error& error);
/// Prints a usage error pointing at the subcommand's --help and returns kExitUsage.
int usageError(std::string_view sub, const std::string& message);

} // namespace kl::app::review
