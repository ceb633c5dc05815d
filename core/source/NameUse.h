#pragma once

#include <string_view>

namespace kl::core {

/// How a line of C or Python uses one identifier, asked of every line for every name by the findings (CudaScan)
/// and the link suggestions. Each used to be a std::regex built from the name per call; building a regex with a
/// bracket expression costs about a millisecond, so a task paid tens of milliseconds on the window's thread and
/// about a hundred on the findings worker. These scanners answer the same questions as those patterns (ASCII
/// word characters, as std::regex's classic locale has them); tests/source/NameUseTest.cpp checks them against
/// the patterns on generated lines.
namespace name_use {

[[nodiscard]] bool isWordChar(char c);

/// `(^|[^\w<notBefore>])name\b`: `name` as a whole word, not preceded by one of `notBefore` (e.g. "." so that a
/// member `s.x` does not count as `x`).
[[nodiscard]] bool mentions(std::string_view line, std::string_view name, std::string_view notBefore = {});

/// `(^|[^\w<notBefore>])name\s*(\[[^\]]*\]\s*)*` followed by `op`: the name, any subscripts, then the
/// operator text `op` (e.g. "+=").
[[nodiscard]] bool usedWith(std::string_view line, std::string_view name, std::string_view notBefore,
                            std::string_view op);

/// `(^|[^\w<notBefore>])name\s*(\[[^\]]*\]\s*)*(\+|-|\*)?=[^=]`: an assignment, plain or compound, to the name
/// or an element of it.
[[nodiscard]] bool assignedTo(std::string_view line, std::string_view name, std::string_view notBefore);

/// `^\s*name\s*\[[^=]*\]\s*=[^=]`: the statement stores into an element of `name`.
[[nodiscard]] bool storesElementOf(std::string_view line, std::string_view name);

} // namespace name_use
} // namespace kl::core
