#include "lesson/LessonText.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace kl::core {

namespace {

constexpr std::array<std::string_view, 4> kPrefixes{"a.", "b.", "delta.", "delta_pct."};

bool knownFigure(std::string_view figure) {
    static const std::array<std::string_view, 14> kFigures{"total_us",
                                                           "active_pct.tensor",
                                                           "active_pct.vector",
                                                           "active_pct.scalar",
                                                           "active_pct.gpsimd",
                                                           "mfu_pct",
                                                           "dma_bytes_mib",
                                                           "dma_active_pct",
                                                           "dma_exposed_us",
                                                           "sbuf_peak_kib",
                                                           "psum_peak_kib",
                                                           "instructions",
                                                           "",
                                                           ""};
    for (std::string_view f : kFigures) {
        if (!f.empty() && f == figure) {
            return true;
        }
    }
    return figure.starts_with("ops.") && figure.size() > 4;
}

bool knownPlaceholder(std::string_view name) {
    if (name == "speedup") {
        return true;
    }
    for (std::string_view prefix : kPrefixes) {
        if (name.starts_with(prefix)) {
            return knownFigure(name.substr(prefix.size()));
        }
    }
    return false;
}

bool isPlaceholderChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

/// Replaces paired `marker`s in a line by <tag>...</tag>; an unpaired marker stays as written.
std::string pairMarkers(const std::string& line, std::string_view marker, std::string_view tag) {
    std::string out;
    std::size_t pos = 0;
    while (true) {
        const auto open = line.find(marker, pos);
        const auto close = open == std::string::npos ? open : line.find(marker, open + marker.size());
        if (close == std::string::npos) {
            out += line.substr(pos);
            return out;
        }
        out += line.substr(pos, open - pos);
        out += fmt::format("<{0}>{1}</{0}>", tag, line.substr(open + marker.size(), close - open - marker.size()));
        pos = close + marker.size();
    }
}

std::string inlineMarkup(const std::string& line) {
    return pairMarkers(pairMarkers(pairMarkers(line, "`", "code"), "**", "b"), "*", "i");
}

std::string substitute(std::string_view text, const LessonNumbers& numbers) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            std::size_t j = i + 1;
            while (j < text.size() && isPlaceholderChar(text[j])) {
                ++j;
            }
            if (j < text.size() && text[j] == '}' && j > i + 1) {
                const std::string_view name = text.substr(i + 1, j - i - 1);
                const auto it = numbers.find(name);
                out += it != numbers.end() ? formatLessonNumber(name, it->second) : std::string("…");
                i = j;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

void addFigures(LessonNumbers& numbers, std::string_view prefix, const std::vector<ComparisonRow>& rows, bool useB) {
    for (const ComparisonRow& row : rows) {
        numbers[fmt::format("{}{}", prefix, row.key)] = useB ? row.b : row.a;
    }
}

} // namespace

LessonNumbers lessonNumbers(const sim::SimResult& a) {
    LessonNumbers numbers;
    addFigures(numbers, "a.", runFigures(a), false);
    return numbers;
}

LessonNumbers lessonNumbers(const RunComparison& comparison) {
    LessonNumbers numbers;
    addFigures(numbers, "a.", comparison.rows(), false);
    addFigures(numbers, "b.", comparison.rows(), true);
    for (const ComparisonRow& row : comparison.rows()) {
        numbers["delta." + row.key] = row.delta();
        if (const auto pct = row.deltaPct()) {
            numbers["delta_pct." + row.key] = *pct;
        }
    }
    if (comparison.speedup() > 0) {
        numbers["speedup"] = comparison.speedup();
    }
    return numbers;
}

std::optional<std::string> unknownPlaceholder(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '{') {
            continue;
        }
        std::size_t j = i + 1;
        while (j < text.size() && isPlaceholderChar(text[j])) {
            ++j;
        }
        if (j < text.size() && text[j] == '}' && j > i + 1) {
            const std::string name(text.substr(i + 1, j - i - 1));
            if (!knownPlaceholder(name)) {
                return name;
            }
        }
    }
    return std::nullopt;
}

std::string formatLessonNumber(std::string_view key, double value) {
    const bool delta = key.starts_with("delta.");
    const char* sign = delta && value > 0 ? "+" : "";
    if (key == "speedup") {
        return fmt::format("{:.2f}x", value);
    }
    if (key.starts_with("delta_pct.")) {
        return fmt::format("{:+.1f}%", value);
    }
    if (key.ends_with("_us")) {
        if (std::abs(value) >= 1000) {
            return fmt::format("{}{:.2f} ms", sign, value / 1000.0);
        }
        return fmt::format("{}{:.1f} us", sign, value);
    }
    if (key.ends_with("_pct") || key.find("_pct.") != std::string_view::npos) {
        return fmt::format("{}{:.1f}%", sign, value);
    }
    if (key.ends_with("_mib")) {
        return fmt::format("{}{:.1f} MiB", sign, value);
    }
    if (key.ends_with("_kib")) {
        return fmt::format("{}{:.0f} KiB", sign, value);
    }
    return fmt::format("{}{:.0f}", sign, value);
}

std::string renderLessonHtml(std::string_view text, const LessonNumbers& numbers) {
    const std::string escaped = substitute(escapeHtml(text), numbers);
    std::string html;
    bool inList = false;
    bool inParagraph = false;
    auto closeBlocks = [&] {
        if (inList) {
            html += "</ul>";
            inList = false;
        }
        if (inParagraph) {
            html += "</p>";
            inParagraph = false;
        }
    };
    std::size_t pos = 0;
    while (pos <= escaped.size()) {
        auto end = escaped.find('\n', pos);
        if (end == std::string::npos) {
            end = escaped.size();
        }
        std::string line = escaped.substr(pos, end - pos);
        pos = end + 1;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) {
            line.pop_back();
        }
        if (line.empty()) {
            closeBlocks();
        } else if (line.starts_with("- ")) {
            if (inParagraph) {
                html += "</p>";
                inParagraph = false;
            }
            if (!inList) {
                html += "<ul>";
                inList = true;
            }
            html += "<li>" + inlineMarkup(line.substr(2)) + "</li>";
        } else {
            if (inList) {
                html += "</ul>";
                inList = false;
            }
            html += inParagraph ? " " : "<p>";
            inParagraph = true;
            html += inlineMarkup(line);
        }
        if (end == escaped.size()) {
            break;
        }
    }
    closeBlocks();
    return html;
}

} // namespace kl::core
