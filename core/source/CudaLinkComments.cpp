#include "source/CudaLinkComments.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>

namespace kl::core {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
        s.remove_suffix(1);
    }
    return s;
}

int indentOf(std::string_view line) {
    int n = 0;
    for (char c : line) {
        if (c == ' ') {
            ++n;
        } else if (c == '\t') {
            n += 8 - n % 8;
        } else {
            break;
        }
    }
    return n;
}

/// Position of the `#` that starts a comment, skipping `#` inside string literals; npos when none.
std::size_t commentStart(std::string_view line) {
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote != 0) {
            if (c == '\\') {
                ++i;
            } else if (c == quote) {
                quote = 0;
            }
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#') {
            return i;
        }
    }
    return std::string_view::npos;
}

bool isBlank(std::string_view line) {
    const auto t = trim(line);
    return t.empty() || t.front() == '#';
}

std::optional<int> parseNumber(std::string_view s) {
    s = trim(s);
    int value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) {
        return std::nullopt;
    }
    return value;
}

/// Last line of the statement starting at `first` (0-based): the block body when the header ends in ':'.
std::size_t statementEnd(const std::vector<std::string_view>& lines, std::size_t first) {
    const auto code = [&](std::size_t i) { return trim(lines[i].substr(0, commentStart(lines[i]))); };
    // A statement may continue over several lines inside brackets.
    std::size_t last = first;
    int depth = 0;
    for (std::size_t i = first; i < lines.size(); ++i) {
        for (char c : code(i)) {
            depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
        }
        last = i;
        if (depth <= 0) {
            break;
        }
    }
    const auto header = code(last);
    if (header.empty() || header.back() != ':') {
        return last;
    }
    const int indent = indentOf(lines[first]);
    std::size_t end = last;
    for (std::size_t i = last + 1; i < lines.size(); ++i) {
        if (isBlank(lines[i])) {
            continue;
        }
        if (indentOf(lines[i]) <= indent) {
            break;
        }
        end = i;
    }
    return end;
}

} // namespace

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        auto nl = text.find('\n', start);
        if (nl == std::string_view::npos) {
            nl = text.size();
        }
        auto line = text.substr(start, nl - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        lines.push_back(line);
        start = nl + 1;
    }
    return lines;
}

int countLines(std::string_view text) {
    return static_cast<int>(splitLines(text).size());
}

CommentLinks parseCudaLinkComments(std::string_view nkiSource, int cudaLineCount) {
    CommentLinks out;
    const auto lines = splitLines(nkiSource);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto hash = commentStart(lines[i]);
        if (hash == std::string_view::npos) {
            continue;
        }
        auto comment = trim(lines[i].substr(hash + 1));
        if (!comment.starts_with("cuda:")) {
            continue;
        }
        const int nkiLine = static_cast<int>(i) + 1;
        const auto body = trim(comment.substr(5));
        const auto dash = body.find('-');
        const auto a = parseNumber(dash == std::string_view::npos ? body : body.substr(0, dash));
        const auto b = dash == std::string_view::npos ? a : parseNumber(body.substr(dash + 1));
        if (!a || !b) {
            out.warnings.push_back({nkiLine, fmt::format("'# cuda: {}' is not a CUDA line or range: write "
                                                         "'# cuda: N' or '# cuda: A-B'",
                                                         body)});
            continue;
        }
        if (*a > *b) {
            out.warnings.push_back(
                {nkiLine, fmt::format("'# cuda: {}' is a reversed range: write '# cuda: {}-{}'", body, *b, *a)});
            continue;
        }
        if (*a < 1 || (cudaLineCount > 0 && *b > cudaLineCount)) {
            out.warnings.push_back({nkiLine, fmt::format("'# cuda: {}' is outside the CUDA file (lines 1-{}); "
                                                         "the link is ignored",
                                                         body, cudaLineCount)});
            continue;
        }
        const bool ownLine = trim(lines[i].substr(0, hash)).empty();
        std::size_t first = i;
        std::size_t last = i;
        if (ownLine) {
            first = i + 1;
            while (first < lines.size() && isBlank(lines[first])) {
                ++first;
            }
            if (first >= lines.size()) {
                out.warnings.push_back({nkiLine, "'# cuda:' comment with no statement after it; ignored"});
                continue;
            }
            last = statementEnd(lines, first);
        }
        LineLink link;
        link.cudaFirst = *a;
        link.cudaLast = *b;
        link.nkiFirst = static_cast<int>(first) + 1;
        link.nkiLast = static_cast<int>(last) + 1;
        link.origin = LinkOrigin::Comment;
        link.state = LinkState::Accepted;
        out.links.push_back(link);
    }
    return out;
}

} // namespace kl::core
