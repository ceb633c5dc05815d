#pragma once

#include <string>
#include <string_view>

// Escaping for report formats. Every piece of user text (titles, annotation text, replies, authors,
// source lines) passes through exactly one of these before it is written.
//
// Invalid UTF-8 is never copied through: each maximal invalid subsequence becomes U+FFFD (the
// "replacement character", as browsers and Qt decode), so every output is valid UTF-8. NUL and other
// C0 controls except tab/newline are replaced by U+FFFD too, so they cannot hide text from a reader.
namespace kl::core::report {

/// `text` as valid UTF-8: invalid sequences and control characters (except \t \n \r) -> U+FFFD.
[[nodiscard]] std::string sanitizeUtf8(std::string_view text);

/// `text` safe to print on a terminal: invalid UTF-8, C0 and C1 control characters (ESC and CSI start escape
/// sequences that clear the screen, retitle the window or hide text), DEL and the bidirectional overrides and
/// isolates (which reorder what a terminal shows) each become U+FFFD. `multiline` keeps \n and \t (a report
/// printed as a whole); otherwise they are replaced too, so one field stays on its line. Every piece of user
/// text kernellens-cli prints passes through it.
[[nodiscard]] std::string terminalText(std::string_view text, bool multiline = false);

/// Sanitised and escaped for HTML text and attribute values (& < > " ').
[[nodiscard]] std::string escapeHtml(std::string_view text);

/// Sanitised and escaped for Markdown running text: backslash-escapes Markdown punctuation and turns
/// < > & into entities, so no link, image, emphasis, heading or raw HTML can come out of user text.
/// Newlines become "<br>"-free hard breaks ("  \n") kept inside the paragraph.
/// `atLineStart` false: the text follows other text on its line (a table cell, "- Rubric: ..."), so its
/// first characters cannot start a list or a heading and are left alone ("1.0", "-2").
[[nodiscard]] std::string escapeMarkdown(std::string_view text, bool atLineStart = true);

/// A fence for a Markdown code block around `text`: backticks, one longer than the longest run inside
/// (at least three).
[[nodiscard]] std::string markdownFence(std::string_view text);

/// One CSV cell (RFC 4180): quoted when it holds a comma, quote, CR or LF; a cell starting with
/// = + - @ (or tab / CR) gets a leading apostrophe so spreadsheets do not run it as a formula.
[[nodiscard]] std::string csvCell(std::string_view text);

/// Standard base64 (RFC 4648) for data: URIs.
[[nodiscard]] std::string base64(std::string_view bytes);

} // namespace kl::core::report
