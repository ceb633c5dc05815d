#include "source/NameUse.h"

namespace kl::core::name_use {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::size_t skipSpaces(std::string_view line, std::size_t p) {
    while (p < line.size() && isSpace(line[p])) {
        ++p;
    }
    return p;
}

/// `\s*(\[[^\]]*\]\s*)*` from `p`. Greedy is the only way it can match before an operator: stopping earlier
/// leaves a space or a '[' where the operator must start.
std::size_t skipSubscripts(std::string_view line, std::size_t p) {
    p = skipSpaces(line, p);
    while (p < line.size() && line[p] == '[') {
        const std::size_t close = line.find(']', p + 1);
        if (close == std::string_view::npos) {
            break;
        }
        p = skipSpaces(line, close + 1);
    }
    return p;
}

/// Calls `rest(end)` for each whole-word occurrence of `name` whose preceding character is neither a word
/// character nor in `notBefore`, with `end` the position after it; true as soon as one call is.
template <typename Rest>
bool anyOccurrence(std::string_view line, std::string_view name, std::string_view notBefore, Rest rest) {
    if (name.empty()) {
        return false;
    }
    for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
        if (at > 0 && (isWordChar(line[at - 1]) || notBefore.find(line[at - 1]) != std::string_view::npos)) {
            continue;
        }
        const std::size_t end = at + name.size();
        if (end < line.size() && isWordChar(line[end]) && isWordChar(name.back())) {
            continue; // a longer identifier: `acc` in `acc2`
        }
        if (rest(end)) {
            return true;
        }
    }
    return false;
}

} // namespace

bool isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool mentions(std::string_view line, std::string_view name, std::string_view notBefore) {
    return anyOccurrence(line, name, notBefore, [](std::size_t) { return true; });
}

bool usedWith(std::string_view line, std::string_view name, std::string_view notBefore, std::string_view op) {
    return anyOccurrence(line, name, notBefore,
                         [&](std::size_t end) { return line.substr(skipSubscripts(line, end)).starts_with(op); });
}

bool assignedTo(std::string_view line, std::string_view name, std::string_view notBefore) {
    return anyOccurrence(line, name, notBefore, [&](std::size_t end) {
        std::size_t p = skipSubscripts(line, end);
        if (p < line.size() && (line[p] == '+' || line[p] == '-' || line[p] == '*')) {
            ++p;
        }
        return p + 1 < line.size() && line[p] == '=' && line[p + 1] != '=';
    });
}

bool storesElementOf(std::string_view line, std::string_view name) {
    std::size_t p = skipSpaces(line, 0);
    if (name.empty() || !line.substr(p).starts_with(name)) {
        return false;
    }
    p = skipSpaces(line, p + name.size());
    if (p >= line.size() || line[p] != '[') {
        return false;
    }
    // `[^=]*\]`: any closing bracket before the first '=' may end the subscript; try each.
    for (std::size_t q = p + 1; q < line.size() && line[q] != '='; ++q) {
        if (line[q] != ']') {
            continue;
        }
        const std::size_t eq = skipSpaces(line, q + 1);
        if (eq + 1 < line.size() && line[eq] == '=' && line[eq + 1] != '=') {
            return true;
        }
    }
    return false;
}

} // namespace kl::core::name_use
