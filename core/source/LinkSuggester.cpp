#include "source/LinkSuggester.h"

#include "source/CudaLinkComments.h"
#include "source/NameUse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

namespace kl::core {

namespace {

struct Range {
    int first = 0; ///< 1-based
    int last = 0;
    std::string name; ///< for name matching
};

/// CUDA lines with comments and string contents blanked, so patterns only see code.
std::vector<std::string> cudaCode(std::string_view source) {
    std::vector<std::string> out;
    bool inBlock = false;
    for (auto line : splitLines(source)) {
        std::string code;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (inBlock) {
                if (line.substr(i, 2) == "*/") {
                    inBlock = false;
                    ++i;
                }
                continue;
            }
            if (line.substr(i, 2) == "//") {
                break;
            }
            if (line.substr(i, 2) == "/*") {
                inBlock = true;
                ++i;
                continue;
            }
            code += line[i];
        }
        out.push_back(std::move(code));
    }
    return out;
}

std::vector<std::string> pythonCode(std::string_view source) {
    std::vector<std::string> out;
    for (auto line : splitLines(source)) {
        const auto hash = line.find('#');
        out.emplace_back(line.substr(0, hash));
    }
    return out;
}

int indentOf(const std::string& line) {
    const auto pos = line.find_first_not_of(" \t");
    return pos == std::string::npos ? -1 : static_cast<int>(pos);
}

/// Last line (0-based) of a C statement or braced block starting at `first`.
std::size_t cudaStatementEnd(const std::vector<std::string>& code, std::size_t first) {
    int depth = 0;
    int parens = 0;
    bool opened = false;
    for (std::size_t i = first; i < code.size(); ++i) {
        for (char c : code[i]) {
            if (c == '(') {
                ++parens;
            } else if (c == ')') {
                --parens;
            } else if (c == '{') {
                ++depth;
                opened = true;
            } else if (c == '}') {
                --depth;
                if (opened && depth == 0) {
                    return i;
                }
            } else if (c == ';' && parens == 0 && depth == 0) {
                return i;
            }
        }
    }
    return code.size() - 1;
}

std::size_t pythonBlockEnd(const std::vector<std::string>& code, std::size_t first) {
    const int indent = indentOf(code[first]);
    std::size_t end = first;
    for (std::size_t i = first + 1; i < code.size(); ++i) {
        const int in = indentOf(code[i]);
        if (in < 0) {
            continue;
        }
        if (in <= indent) {
            break;
        }
        end = i;
    }
    return end;
}

template <typename End>
std::vector<Range> matching(const std::vector<std::string>& code, const std::regex& pattern, End end) {
    std::vector<Range> out;
    for (std::size_t i = 0; i < code.size(); ++i) {
        std::smatch m;
        if (std::regex_search(code[i], m, pattern)) {
            out.push_back({static_cast<int>(i) + 1, static_cast<int>(end(i)) + 1, m.size() > 1 ? m[1].str() : ""});
        }
    }
    return out;
}

void pairInOrder(const std::vector<Range>& cuda, const std::vector<Range>& nki, const std::string& what,
                 std::vector<LinkSuggestion>& out) {
    const std::size_t n = std::min(cuda.size(), nki.size());
    for (std::size_t i = 0; i < n; ++i) {
        LinkSuggestion s;
        s.link.cudaFirst = cuda[i].first;
        s.link.cudaLast = cuda[i].last;
        s.link.nkiFirst = nki[i].first;
        s.link.nkiLast = nki[i].last;
        s.link.origin = LinkOrigin::Suggestion;
        s.link.state = LinkState::Proposed;
        s.reason = n > 1 ? fmt::format("{} {} of {}", what, i + 1, n) : what;
        out.push_back(std::move(s));
    }
}

void pairByName(const std::vector<std::string>& cuda, const std::vector<std::string>& nki, std::set<int>& usedNki,
                std::vector<LinkSuggestion>& out) {
    static const std::regex assign(R"(^\s*([A-Za-z_]\w*)\s*(\+|-|\*)?=[^=])");
    static const std::set<std::string> kCommon = {"idx", "tmp", "out", "result", "res", "val", "value", "self"};
    std::set<std::string> seen;
    for (std::size_t i = 0; i < nki.size(); ++i) {
        std::smatch m;
        if (usedNki.contains(static_cast<int>(i) + 1) || !std::regex_search(nki[i], m, assign)) {
            continue;
        }
        const std::string name = m[1].str();
        if (name.size() < 3 || kCommon.contains(name) || !seen.insert(name).second) {
            continue;
        }
        for (std::size_t c = 0; c < cuda.size(); ++c) {
            if (name_use::assignedTo(cuda[c], name, ".")) {
                LinkSuggestion s;
                s.link = {0,
                          0,
                          static_cast<int>(c) + 1,
                          static_cast<int>(c) + 1,
                          static_cast<int>(i) + 1,
                          static_cast<int>(i) + 1,
                          LinkOrigin::Suggestion,
                          LinkState::Proposed,
                          {}};
                s.reason = fmt::format("same name '{}'", name);
                out.push_back(std::move(s));
                usedNki.insert(static_cast<int>(i) + 1);
                break;
            }
        }
    }
}

bool covered(const LineLink& s, const std::vector<LineLink>& existing) {
    return std::any_of(existing.begin(), existing.end(), [&](const LineLink& l) {
        return l.nkiFirst == s.nkiFirst && l.cudaFirst <= s.cudaLast && s.cudaFirst <= l.cudaLast;
    });
}

} // namespace

std::vector<LinkSuggestion> LinkSuggester::suggest(std::string_view cudaSource, std::string_view nkiSource,
                                                   const std::vector<LineLink>& existing) {
    const auto cuda = cudaCode(cudaSource);
    const auto nki = pythonCode(nkiSource);
    if (cuda.empty() || nki.empty()) {
        return {};
    }
    const auto cEnd = [&](std::size_t i) { return cudaStatementEnd(cuda, i); };
    const auto pEnd = [&](std::size_t i) { return pythonBlockEnd(nki, i); };
    const auto same = [](std::size_t i) { return i; };
    std::vector<LinkSuggestion> all;

    static const std::regex cLoop(R"(\b(for|while)\s*\()");
    static const std::regex pLoop(
        R"(^\s*for\s+.*\bin\s+(nl\.)?(affine_range|sequential_range|static_range|range)\s*\()");
    pairInOrder(matching(cuda, cLoop, cEnd), matching(nki, pLoop, pEnd), "loop", all);

    static const std::regex cShared(R"(__shared__)");
    static const std::regex pAlloc(R"(\bnl\.(ndarray|zeros|ones|full|empty|zeros_like|empty_like)\s*\()");
    std::vector<Range> sbuf;
    std::vector<Range> psum;
    for (const auto& r : matching(nki, pAlloc, same)) {
        const auto& line = nki[static_cast<std::size_t>(r.first - 1)];
        if (line.find("buffer=nl.psum") != std::string::npos || line.find("buffer = nl.psum") != std::string::npos) {
            psum.push_back(r);
        } else if (line.find("buffer") == std::string::npos || line.find("nl.sbuf") != std::string::npos) {
            sbuf.push_back(r);
        }
    }
    pairInOrder(matching(cuda, cShared, same), sbuf, "__shared__ tile -> SBUF tile", all);

    static const std::regex cAcc(R"(\b(float|double)\s+(\w+)\s*=\s*0(\.0*)?f?\s*;)");
    pairInOrder(matching(cuda, cAcc, same), psum, "accumulator -> PSUM tile", all);

    static const std::regex cSync(R"(__syncthreads\s*\()");
    static const std::regex pBarrier(R"(\b(barrier|sync\w*)\s*\()");
    pairInOrder(matching(cuda, cSync, same), matching(nki, pBarrier, same), "__syncthreads -> barrier", all);

    std::set<int> usedNki;
    for (const auto& s : all) {
        usedNki.insert(s.link.nkiFirst);
    }
    pairByName(cuda, nki, usedNki, all);

    std::vector<LinkSuggestion> out;
    for (auto& s : all) {
        const bool duplicate = std::any_of(out.begin(), out.end(), [&](const LinkSuggestion& o) {
            return o.link.cudaFirst == s.link.cudaFirst && o.link.cudaLast == s.link.cudaLast &&
                   o.link.nkiFirst == s.link.nkiFirst && o.link.nkiLast == s.link.nkiLast;
        });
        if (!duplicate && !covered(s.link, existing)) {
            out.push_back(std::move(s));
        }
    }
    return out;
}

} // namespace kl::core
