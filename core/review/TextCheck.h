#pragma once

#include "common/Error.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace kl::core {

/// Upper bound for one text field (annotation text, a reply, a title). Generous enough for pasted
/// logs; small enough that a runaway paste cannot make the file unusable.
inline constexpr std::size_t kMaxTextBytes = 16 * 1024 * 1024;

/// Checks text that goes into the review file: valid UTF-8 (core strings are UTF-8, and the GUI
/// converts them to QString losslessly only then), no NUL (the sqlite3 shell would cut it there),
/// at most kMaxTextBytes. Anything else is stored exactly as given.
[[nodiscard]] Expected<void> checkText(std::string_view text, std::string_view field, bool allowEmpty);

[[nodiscard]] bool isValidUtf8(std::string_view text);

/// Current time as ISO 8601 UTC with milliseconds, "2026-11-30T14:31:05.123Z": sorts as text and
/// reads well in the sqlite3 shell.
[[nodiscard]] std::string utcNow();

} // namespace kl::core
