#include "FuzzMutator.h"

#include <algorithm>
#include <array>

namespace kl::fuzz {

namespace {

/// Numbers at and past every range a loader checks: zero, negatives, the float extremes, the 2^31/2^32/2^63/
/// 2^64 boundaries, one that overflows a double (1e999), non-integers and the non-finite spellings.
constexpr std::array<std::string_view, 24> kExtremeNumbers = {"0",
                                                              "-1",
                                                              "1e308",
                                                              "-1e308",
                                                              "1e999",
                                                              "9223372036854775807",
                                                              "9223372036854775808",
                                                              "-9223372036854775809",
                                                              "18446744073709551616",
                                                              "4294967296",
                                                              "2147483648",
                                                              "65536",
                                                              "0.5",
                                                              "1e-320",
                                                              "-0",
                                                              "1.5",
                                                              "1099511627777",
                                                              "281474976710657",
                                                              "\"NaN\"",
                                                              "\"inf\"",
                                                              "NaN",
                                                              "Infinity",
                                                              "3e38",
                                                              "-2147483649"};

/// What a value can be swapped for: every JSON type, empty and nested containers.
constexpr std::array<std::string_view, 12> kTypeSwaps = {
    "null", "true", "false", "0", "\"\"", "\"x\"", "[]", "{}", "[[[]]]", "{\"a\": {}}", "[0, \"a\", null]", "-7"};

/// Hostile strings (without the quotes): escapes JSON allows, control characters, invalid UTF-8 bytes, paths.
constexpr std::array<std::string_view, 12> kStrings = {"",
                                                       "\\u001b[2J\\u001b]0;pwned\\u0007",
                                                       "\\u0000",
                                                       "\xff\xfe",
                                                       "\xc3\x28",
                                                       "\xed\xa0\x80",
                                                       "../../../etc/passwd",
                                                       "/etc/passwd",
                                                       "%s%n%x",
                                                       "\\ud800",
                                                       "\xe2\x80\xae"
                                                       "evil",
                                                       "a\\nb\\r\\tc"};

constexpr std::array<unsigned char, 16> kInterestingBytes = {0x00, 0xff, 0x7f, 0x80, '"',  '{',  '[', ']',
                                                             '}',  ',',  ':',  '\\', 0x1b, 0xc3, '0', '-'};

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/// One past the end of the string starting at `i` (a quote), or npos.
std::size_t stringEnd(std::string_view s, std::size_t i) {
    for (std::size_t k = i + 1; k < s.size(); ++k) {
        if (s[k] == '\\') {
            ++k;
        } else if (s[k] == '"') {
            return k + 1;
        }
    }
    return std::string_view::npos;
}

} // namespace

std::uint64_t Rng::next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::vector<JsonSpan> jsonValues(std::string_view text, std::size_t limit) {
    struct Frame {
        std::size_t span;
        bool object;
        bool expectKey;
        std::size_t keyStart;
    };
    std::vector<JsonSpan> spans;
    std::vector<Frame> stack;
    for (std::size_t i = 0; i < text.size() && spans.size() < limit; ++i) {
        const char c = text[i];
        if (isSpace(c) || c == ':') {
            continue;
        }
        if (c == ',') {
            if (!stack.empty() && stack.back().object) {
                stack.back().expectKey = true;
            }
            continue;
        }
        if (c == ']' || c == '}') {
            if (stack.empty()) {
                return {};
            }
            spans[stack.back().span].end = i + 1;
            stack.pop_back();
            continue;
        }
        if (!stack.empty() && stack.back().object && stack.back().expectKey) {
            if (c != '"') {
                return {};
            }
            const std::size_t end = stringEnd(text, i);
            if (end == std::string_view::npos) {
                return {};
            }
            stack.back().keyStart = i;
            stack.back().expectKey = false;
            i = end - 1;
            continue;
        }
        JsonSpan span;
        span.begin = i;
        span.memberBegin = !stack.empty() && stack.back().object ? stack.back().keyStart : i;
        if (c == '[' || c == '{') {
            span.kind = c == '[' ? JsonSpan::Kind::Array : JsonSpan::Kind::Object;
            spans.push_back(span);
            stack.push_back({spans.size() - 1, c == '{', c == '{', i});
            continue;
        }
        std::size_t end = i + 1;
        if (c == '"') {
            span.kind = JsonSpan::Kind::String;
            end = stringEnd(text, i);
            if (end == std::string_view::npos) {
                return {};
            }
        } else {
            span.kind = (c == '-' || (c >= '0' && c <= '9')) ? JsonSpan::Kind::Number : JsonSpan::Kind::Literal;
            while (end < text.size() && !isSpace(text[end]) && text[end] != ',' && text[end] != ']' &&
                   text[end] != '}') {
                ++end;
            }
        }
        span.end = end;
        spans.push_back(span);
        i = end - 1;
    }
    if (!stack.empty()) {
        return {};
    }
    return spans;
}

void Mutator::byteMutation(std::string& s, Rng& rng) const {
    // A quarter of the byte mutations land in the first 128 bytes: file headers (SQLite's) live there.
    const auto position = [&](std::size_t size) {
        return rng.oneIn(4) ? rng.below(std::min<std::size_t>(size, 128)) : rng.below(size);
    };
    switch (rng.below(7)) {
    case 0:
        if (!s.empty()) {
            s[position(s.size())] ^= static_cast<char>(1u << rng.below(8));
        }
        break;
    case 1:
        if (!s.empty()) {
            s[position(s.size())] = static_cast<char>(kInterestingBytes[rng.below(kInterestingBytes.size())]);
        }
        break;
    case 2: {
        std::string bytes(1 + rng.below(8), '\0');
        for (char& b : bytes) {
            b = static_cast<char>(rng.next());
        }
        s.insert(position(s.size() + 1), bytes);
        break;
    }
    case 3:
        if (!s.empty()) {
            const std::size_t at = position(s.size());
            s.erase(at, 1 + rng.below(64));
        }
        break;
    case 4: s.resize(rng.below(s.size() + 1)); break;
    case 5:
        if (!s.empty()) {
            const std::size_t from = rng.below(s.size());
            const std::string chunk = s.substr(from, 1 + rng.below(256));
            s.insert(rng.below(s.size() + 1), chunk);
        }
        break;
    default:
        if (s.size() > 1) {
            const std::size_t from = rng.below(s.size());
            const std::string chunk = s.substr(from, 1 + rng.below(64));
            const std::size_t to = rng.below(s.size());
            s.replace(to, std::min(chunk.size(), s.size() - to), chunk);
        }
        break;
    }
}

bool Mutator::jsonMutation(std::string& s, Rng& rng) const {
    const std::vector<JsonSpan> spans = jsonValues(s);
    if (spans.empty()) {
        return false;
    }
    const auto pick = [&](auto&& accept) -> const JsonSpan* {
        for (int tries = 0; tries < 16; ++tries) {
            const JsonSpan& span = spans[rng.below(spans.size())];
            if (accept(span)) {
                return &span;
            }
        }
        return nullptr;
    };
    const auto replace = [&](const JsonSpan& span, std::string_view with) {
        s.replace(span.begin, span.end - span.begin, with);
    };
    switch (rng.below(7)) {
    case 0:
    case 1: { // the most productive: a number out of range
        const JsonSpan* n = pick([](const JsonSpan& sp) { return sp.kind == JsonSpan::Kind::Number; });
        if (n == nullptr) {
            return false;
        }
        replace(*n, kExtremeNumbers[rng.below(kExtremeNumbers.size())]);
        return true;
    }
    case 2: {
        const JsonSpan* v = pick([](const JsonSpan&) { return true; });
        replace(*v, kTypeSwaps[rng.below(kTypeSwaps.size())]);
        return true;
    }
    case 3: {
        const JsonSpan* v = pick([](const JsonSpan& sp) { return sp.kind == JsonSpan::Kind::String; });
        if (v == nullptr) {
            return false;
        }
        std::string text =
            rng.oneIn(8) ? std::string(64 * 1024, 'A') : std::string(kStrings[rng.below(kStrings.size())]);
        replace(*v, "\"" + text + "\"");
        return true;
    }
    case 4: { // delete or duplicate an object member
        const JsonSpan* m = pick([](const JsonSpan& sp) { return sp.memberBegin < sp.begin; });
        if (m == nullptr) {
            return false;
        }
        const std::string member = s.substr(m->memberBegin, m->end - m->memberBegin);
        if (rng.oneIn(2)) {
            s.insert(m->end, ", " + member);
        } else {
            s.erase(m->memberBegin, m->end - m->memberBegin);
            // Leaves a stray comma at times: a syntax error is a case too.
        }
        return true;
    }
    case 5: { // deep nesting around a value
        const JsonSpan* v = pick([](const JsonSpan&) { return true; });
        // Deep enough to overflow the (2 MiB, FuzzHarness) stack of any code that recurses per level; the
        // deepest only now and then, they cost milliseconds to build and parse.
        static constexpr std::array<std::size_t, 4> kDepths = {64, 1000, 20000, 100000};
        const std::size_t depth = kDepths[rng.oneIn(8) ? 3 : rng.below(3)];
        const bool arrays = rng.oneIn(2);
        std::string open;
        std::string close;
        for (std::size_t d = 0; d < depth; ++d) {
            open += arrays ? "[" : "{\"k\": ";
            close += arrays ? "]" : "}";
        }
        s.insert(v->end, close);
        s.insert(v->begin, open);
        return true;
    }
    default: { // copy one value over another
        const JsonSpan* a = pick([](const JsonSpan&) { return true; });
        const JsonSpan* b = pick([](const JsonSpan&) { return true; });
        const std::string text = s.substr(a->begin, a->end - a->begin);
        replace(*b, text);
        return true;
    }
    }
}

std::string Mutator::mutate(std::string input, Rng& rng) const {
    const std::size_t count = 1 + rng.below(4);
    for (std::size_t k = 0; k < count; ++k) {
        // JSON formats: three mutations in four are JSON-aware (they reach past the parser).
        if (!(m_json && !rng.oneIn(4) && jsonMutation(input, rng))) {
            byteMutation(input, rng);
        }
    }
    return input;
}

std::string makeCase(const std::vector<std::string>& seeds, const Mutator& mutator, std::uint64_t seed,
                     std::uint64_t index) {
    Rng rng(seed * 0x100000001b3ULL ^ (index + 1) * 0x9e3779b97f4a7c15ULL);
    const std::string& base = seeds[rng.below(seeds.size())];
    // A few cases run a seed unchanged: the valid path must keep working too.
    return rng.oneIn(64) ? base : mutator.mutate(base, rng);
}

} // namespace kl::fuzz
