#include "review/SeverityPalette.h"

#include <cassert>

namespace kl::core {

SeverityColours severityColours(Severity severity) {
    switch (severity) {
    case Severity::Blocking: return {"#b71c1c", "#b71c1c"};
    case Severity::Major: return {"#e65100", "#e65100"};
    case Severity::Minor: return {"#f2b705", "#b08400"};
    case Severity::Nit: return {"#8893a0", "#5b6573"};
    case Severity::Praise: return {"#2e8540", "#2e8540"};
    }
    return {"#8893a0", "#5b6573"};
}

Rgb rgbOf(std::string_view hex) {
    assert(hex.size() == 7 && hex[0] == '#');
    const auto nibble = [](char c) { return static_cast<std::uint8_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10); };
    const auto byte = [&](std::size_t i) {
        return static_cast<std::uint8_t>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
    };
    return {byte(1), byte(3), byte(5)};
}

} // namespace kl::core
