#pragma once

#include <QString>

#include <filesystem>
#include <string>
#include <string_view>

namespace kl::views {

// The one place where core's UTF-8 std::string becomes a QString (DESIGN.md: "conversion to QString happens in
// one place at the views boundary"); views and app use these instead of local helpers.

/// UTF-8 text as a QString.
[[nodiscard]] inline QString toQString(std::string_view utf8) {
    return QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
}
[[nodiscard]] inline QString toQString(const std::string& utf8) {
    return toQString(std::string_view(utf8));
}
[[nodiscard]] inline QString toQString(const char* utf8) {
    return toQString(std::string_view(utf8));
}
/// A path as the user reads it.
[[nodiscard]] inline QString toQString(const std::filesystem::path& path) {
    return toQString(path.string());
}
/// UTF-8 text made safe to put into rich text (HTML-escaped).
[[nodiscard]] inline QString toHtmlText(std::string_view utf8) {
    return toQString(utf8).toHtmlEscaped();
}

} // namespace kl::views
