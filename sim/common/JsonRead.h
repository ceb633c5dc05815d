#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// Checked reads of numbers and strings from parsed JSON, shared by every loader (hardware profiles, Kernel
/// IR, task.json, rubrics, lessons). nlohmann's own `get<int>()` converts 1e308 or -1 to whatever the cast
/// gives and `get<std::string>()` throws on a number; these return nothing instead, and `mismatch()` builds
/// the message a loader reports: the field's path, what was expected and what was found, never recursing
/// into (or dumping) a deeply nested value.
namespace kl::json {

using Json = nlohmann::json;

/// `v` as an integer if it is a JSON integer, or a float with an integral value, within [lo, hi].
[[nodiscard]] std::optional<std::int64_t> integerIn(const Json& v, std::int64_t lo, std::int64_t hi);
/// `v` as a finite number within [lo, hi] (an integer or a float).
[[nodiscard]] std::optional<double> numberIn(const Json& v, double lo, double hi);
/// `v` as a string; nothing for any other type. `nonEmpty` refuses "".
[[nodiscard]] std::optional<std::string> stringOf(const Json& v, bool nonEmpty = false);

/// `text` in double quotes for a message, shortened to 40 bytes, control characters escaped: "\"abc\"".
[[nodiscard]] std::string inQuotes(std::string_view text);
/// What `v` is, for a message: "the number -3", "the string \"abc\"" (shortened, control characters escaped),
/// "an array", "an object", "null", "true". Never recursive.
[[nodiscard]] std::string describe(const Json& v);
/// "PATH: expected WHAT, found DESCRIBE(v)".
[[nodiscard]] std::string mismatch(std::string_view path, std::string_view what, const Json& v);
/// "an integer from LO to HI" with large bounds written as powers of two ("2^36") so they stay readable.
[[nodiscard]] std::string integerRange(std::int64_t lo, std::int64_t hi);
/// "a number from LO to HI".
[[nodiscard]] std::string numberRange(double lo, double hi);

} // namespace kl::json
