#include "findings/CudaScan.h"

#include "source/NameUse.h"

#include <algorithm>
#include <regex>
#include <set>

namespace kl::core::findings {

namespace {

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

/// Removes // and /* */ comments; `inBlock` carries an open block comment across lines.
std::string stripComments(std::string_view line, bool& inBlock) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (inBlock) {
            if (line.compare(i, 2, "*/") == 0) {
                inBlock = false;
                ++i;
            }
            continue;
        }
        if (line.compare(i, 2, "//") == 0) {
            break;
        }
        if (line.compare(i, 2, "/*") == 0) {
            inBlock = true;
            ++i;
            continue;
        }
        out.push_back(line[i]);
    }
    return trim(out);
}

/// Words that start a new declaration (a parameter list's next type), not a declarator name.
bool isTypeWord(const std::string& w) {
    static const std::set<std::string> kTypes = {
        "float", "double", "half",   "__half", "__nv_bfloat16", "nv_bfloat16", "int",     "unsigned", "long", "short",
        "char",  "bool",   "size_t", "const",  "uint4",         "float4",      "int64_t", "uint32_t", "auto", "void"};
    return kTypes.contains(w);
}

bool isCode(const std::string& code) {
    if (code.empty() || code.front() == '#') {
        return false;
    }
    return code.find_first_not_of("{}; \t") != std::string::npos;
}

} // namespace

CudaScan::CudaScan(std::string_view source, std::string_view kernel) {
    bool inBlock = false;
    int number = 0;
    std::size_t pos = 0;
    while (pos <= source.size()) {
        const auto end = source.find('\n', pos);
        const std::string_view raw =
            source.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        m_lines.push_back({++number, stripComments(raw, inBlock), false});
        if (end == std::string_view::npos) {
            break;
        }
        pos = end + 1;
    }
    // Kernel bodies: from a __global__ function's opening brace to its matching close.
    auto markKernels = [&](bool onlyNamed) {
        bool found = false;
        for (std::size_t i = 0; i < m_lines.size(); ++i) {
            if (m_lines[i].code.find("__global__") == std::string::npos) {
                continue;
            }
            // The signature may span lines: the name is in the text up to the opening brace.
            std::string signature;
            std::size_t open = i;
            for (; open < m_lines.size(); ++open) {
                signature += m_lines[open].code + " ";
                if (m_lines[open].code.find('{') != std::string::npos) {
                    break;
                }
            }
            if (onlyNamed && !std::regex_search(signature, std::regex("\\b" + std::string(kernel) + "\\s*\\("))) {
                continue;
            }
            // The body: the lines after the opening brace up to the line that closes it.
            int depth = 0;
            std::size_t close = open;
            for (; close < m_lines.size(); ++close) {
                for (const char c : m_lines[close].code) {
                    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                }
                if (depth <= 0 && close > open) {
                    break;
                }
            }
            std::string body;
            for (std::size_t k = open + 1; k < close && k < m_lines.size(); ++k) {
                m_lines[k].inKernel = true;
                body += m_lines[k].code + "\n";
            }
            collectNames(signature, true);
            collectNames(body, false);
            i = close;
            found = true;
        }
        return found;
    };
    if (kernel.empty() || !markKernels(true)) {
        markKernels(false);
    }
}

std::vector<int> CudaScan::kernelCodeLines() const {
    std::vector<int> out;
    for (const Line& l : m_lines) {
        if (l.inKernel && isCode(l.code)) {
            out.push_back(l.number);
        }
    }
    return out;
}

std::vector<int> CudaScan::dataLines() const {
    std::vector<int> out;
    for (const int n : kernelCodeLines()) {
        const std::string& code = m_lines[static_cast<std::size_t>(n - 1)].code;
        const bool namesData = std::any_of(m_dataNames.begin(), m_dataNames.end(), [&](const std::string& name) {
            // Not a member of something else: `blockIdx.x` does not name a parameter `x`.
            return name_use::mentions(code, name, ".>");
        });
        if (namesData && computes(code)) {
            out.push_back(n);
        }
    }
    return out;
}

bool CudaScan::computes(const std::string& code) const {
    // Index expressions and template arguments say nothing about the data: drop them first.
    std::string s;
    int square = 0;
    int angle = 0;
    for (const char c : code) {
        square += c == '[' ? 1 : 0;
        if (square == 0 && angle == 0) {
            s.push_back(c);
        }
        square -= c == ']' && square > 0 ? 1 : 0;
        if (c == '<' && (s.ends_with("_cast<") || s.ends_with("_cast"))) {
            angle = 1;
        } else if (c == '>' && angle > 0) {
            angle = 0;
        }
    }
    static const std::regex kCompound(R"((\+=|-=|\*=|/=))");
    static const std::regex kMath(
        R"(\b(expf?|exp2f?|logf?|log2f?|sqrtf?|rsqrtf|tanhf?|fmaxf?|fminf?|fmaf?|max|min|powf?|sinf?|cosf?|erff?|__expf|__logf|__fdividef|__frcp_rn|__shfl\w*|atomic\w+|warp_\w+|block_\w+)\s*\()");
    static const std::regex kArithmetic(R"([\w)\]]\s*[-+*/]\s*[\w(.])");
    if (std::regex_search(s, kCompound) || std::regex_search(s, kMath)) {
        return true;
    }
    const auto eq = s.find('=');
    const std::string rhs = eq == std::string::npos ? s : s.substr(eq + 1);
    if (std::regex_search(rhs, kArithmetic)) {
        return true;
    }
    // A store into a floating-point kernel parameter (the output) is work the NKI kernel must do too.
    for (const std::string& p : m_dataParams) {
        if (name_use::storesElementOf(code, p)) {
            return true;
        }
    }
    return false;
}

std::vector<int> CudaScan::boundGuards() const {
    static const std::regex kGuard(R"(\bif\s*\(.*(<|>=|<=|>).*\))");
    std::vector<int> out;
    for (const Line& l : m_lines) {
        if (l.inKernel && std::regex_search(l.code, kGuard)) {
            out.push_back(l.number);
        }
    }
    return out;
}

std::vector<int> CudaScan::floatAccumulations() const {
    std::vector<int> out;
    for (const Line& l : m_lines) {
        if (!l.inKernel) {
            continue;
        }
        for (const std::string& n : m_wideNames) {
            if (name_use::usedWith(l.code, n, "", "+=")) {
                out.push_back(l.number);
                break;
            }
        }
    }
    return out;
}

void CudaScan::collectNames(std::string_view text, bool parameters) {
    // `float* __restrict__ out`, `const float v = ...`, `float acc[8][8] = {}`, `float sum = 0.f, sq = 0.f;`
    static const std::regex kDecl(
        R"(\b(float|double|half|__half|__nv_bfloat16|nv_bfloat16)\b\s*(const\s*)?\*?\s*(__restrict__\s*)?\*?\s*(\w+))");
    static const std::regex kMore(R"(^\s*(\[[^\]]*\]\s*)*(=[^,;()]*)?,\s*\*?\s*(\w+))");
    const std::string s(text);
    for (std::sregex_iterator it(s.begin(), s.end(), kDecl), end; it != end; ++it) {
        const std::string type = (*it)[1].str();
        const bool wide = type == "float" || type == "double";
        std::vector<std::string> names = {(*it)[4].str()};
        std::string tail = it->suffix().str();
        std::smatch more;
        while (std::regex_search(tail, more, kMore) && !isTypeWord(more[3].str())) {
            names.push_back(more[3].str()); // the next declarator of the same declaration
            tail = more.suffix().str();
        }
        for (const std::string& n : names) {
            if (n == "const" || n == "__restrict__") {
                continue;
            }
            if (std::find(m_dataNames.begin(), m_dataNames.end(), n) == m_dataNames.end()) {
                m_dataNames.push_back(n);
            }
            if (wide && std::find(m_wideNames.begin(), m_wideNames.end(), n) == m_wideNames.end()) {
                m_wideNames.push_back(n);
            }
            if (parameters) {
                m_dataParams.push_back(n);
            }
        }
    }
}

} // namespace kl::core::findings
