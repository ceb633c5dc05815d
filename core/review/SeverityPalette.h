#pragma once

#include "review/ReviewTypes.h"

#include <cstdint>
#include <string_view>

namespace kl::core {

/// The one palette of annotation and finding severities, used by the GUI (annotation list, timeline bands,
/// findings), the report's timeline image and the HTML report. Two shades per severity, both on a white page:
/// `mark` for bands, markers and borders, `text` for the severity written as text (darker where the mark is too
/// light to read: minor and nit).
struct SeverityColours {
    std::string_view mark; ///< "#rrggbb"
    std::string_view text; ///< "#rrggbb"
};

[[nodiscard]] SeverityColours severityColours(Severity severity);

/// The red, green and blue bytes of a "#rrggbb" colour (for Qt's QColor, which core does not include).
struct Rgb {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
};
[[nodiscard]] Rgb rgbOf(std::string_view hex);

} // namespace kl::core
