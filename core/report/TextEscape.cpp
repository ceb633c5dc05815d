#include "report/TextEscape.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace kl::core::report {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

/// Length of the valid UTF-8 sequence starting at `i`, 0 when it is invalid (Unicode 15, table 3-7:
/// no overlongs, no surrogates, nothing above U+10FFFF).
std::size_t validSequenceLength(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        length = 3;
        lo = b0 == 0xE0 ? 0xA0 : 0x80;
        hi = b0 == 0xED ? 0x9F : 0xBF;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        length = 4;
        lo = b0 == 0xF0 ? 0x90 : 0x80;
        hi = b0 == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (i + length > s.size()) {
        return 0;
    }
    const unsigned char b1 = byte(i + 1);
    if (b1 < lo || b1 > hi) {
        return 0;
    }
    for (std::size_t k = 2; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            return 0;
        }
    }
    return length;
}

bool isBadControl(unsigned char c) {
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
}

} // namespace

std::string sanitizeUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t n = validSequenceLength(text, i);
        if (n == 0) {
            // One replacement per maximal invalid subsequence: skip continuation bytes that follow.
            out += kReplacement;
            ++i;
            while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
                ++i;
            }
            continue;
        }
        if (n == 1 && isBadControl(static_cast<unsigned char>(text[i]))) {
            out += kReplacement;
        } else {
            out.append(text.substr(i, n));
        }
        i += n;
    }
    return out;
}

std::string terminalText(std::string_view text, bool multiline) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t n = validSequenceLength(text, i);
        const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
        bool bad = n == 0;
        if (n == 1) {
            const unsigned char c = b(0);
            bad = c == 0x7F || (c < 0x20 && !(multiline && (c == '\n' || c == '\t')));
        } else if (n == 2) {
            bad = b(0) == 0xC2 && b(1) < 0xA0; // U+0080..U+009F: the C1 controls (0x9B is CSI)
        } else if (n == 3 && b(0) == 0xE2) {
            // U+202A..U+202E (embeddings, overrides) and U+2066..U+2069 (isolates)
            bad = (b(1) == 0x80 && b(2) >= 0xAA && b(2) <= 0xAE) || (b(1) == 0x81 && b(2) >= 0xA6 && b(2) <= 0xA9);
        }
        if (bad) {
            out += kReplacement;
        } else {
            out.append(text.substr(i, n));
        }
        if (n == 0) {
            // One replacement per maximal invalid subsequence, as in sanitizeUtf8.
            ++i;
            while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
                ++i;
            }
        } else {
            i += n;
        }
    }
    return out;
}

std::string escapeHtml(std::string_view text) {
    const std::string clean = sanitizeUtf8(text);
    std::string out;
    out.reserve(clean.size() + clean.size() / 8);
    for (const char c : clean) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string escapeMarkdown(std::string_view text, bool atLineStart) {
    const std::string clean = sanitizeUtf8(text);
    constexpr std::string_view kPunctuation = "\\`*_{}[]()#!|~";
    constexpr std::string_view kLineStart = "-+=";
    std::string out;
    out.reserve(clean.size() + clean.size() / 4);
    bool lineStart = atLineStart;
    bool digitsAtStart = false;
    for (const char c : clean) {
        if (c == '\r') {
            continue;
        }
        if (c == '\n') {
            out += "  \n"; // hard break: the text stays one paragraph
            lineStart = true;
            digitsAtStart = false;
            continue;
        }
        if (c == '<') {
            out += "&lt;";
        } else if (c == '>') {
            out += "&gt;";
        } else if (c == '&') {
            out += "&amp;";
        } else if (kPunctuation.find(c) != std::string_view::npos) {
            out += '\\';
            out += c;
        } else if (lineStart && kLineStart.find(c) != std::string_view::npos) {
            out += '\\'; // "- " / "+ " would start a list, "===" / "---" a heading or a rule
            out += c;
        } else if ((c == '.' || c == ')') && digitsAtStart) {
            out += '\\'; // "1." at a line start would begin an ordered list
            out += c;
        } else if (c == ' ' && lineStart) {
            out += "&#32;"; // leading spaces would make an indented code block
            continue;
        } else {
            out += c;
        }
        digitsAtStart = (lineStart || digitsAtStart) && c >= '0' && c <= '9';
        lineStart = false;
    }
    return out;
}

std::string markdownFence(std::string_view text) {
    std::size_t longest = 0;
    std::size_t run = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string csvCell(std::string_view text) {
    std::string clean = sanitizeUtf8(text);
    if (!clean.empty() && (clean[0] == '=' || clean[0] == '+' || clean[0] == '-' || clean[0] == '@' ||
                           clean[0] == '\t' || clean[0] == '\r')) {
        clean.insert(clean.begin(), '\'');
    }
    if (clean.find_first_of(",\"\r\n") == std::string::npos) {
        return clean;
    }
    std::string out = "\"";
    for (const char c : clean) {
        if (c == '"') {
            out += '"';
        }
        out += c;
    }
    out += '"';
    return out;
}

std::string base64(std::string_view bytes) {
    static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t v = (static_cast<std::uint8_t>(bytes[i]) << 16) |
                                (static_cast<std::uint8_t>(bytes[i + 1]) << 8) |
                                static_cast<std::uint8_t>(bytes[i + 2]);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    if (i < bytes.size()) {
        std::uint32_t v = static_cast<std::uint8_t>(bytes[i]) << 16;
        const bool two = i + 1 < bytes.size();
        if (two) {
            v |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
        }
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += two ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

} // namespace kl::core::report
