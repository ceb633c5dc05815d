#include "cli/ReviewOptions.h"

#include "cli/CliSupport.h"

#include "report/TextEscape.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>

namespace kl::app::review {

std::string shown(std::string_view text) {
    return core::report::terminalText(text);
}

std::optional<Options> parseOptions(const std::vector<std::string>& args, std::size_t first,
                                    const std::set<std::string_view>& valued,
                                    const std::set<std::string_view>& boolean) {
    Options out;
    for (std::size_t i = first; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() < 2 || arg.rfind("--", 0) != 0) {
            out.positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2), value;
        const std::size_t eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        if (boolean.contains(name) && !inlineValue) {
            out.flags.insert(name);
        } else if (valued.contains(name)) {
            if (!inlineValue) {
                if (i + 1 >= args.size()) {
                    std::fprintf(stderr, "error: --%s needs a value\n", shown(name).c_str());
                    return std::nullopt;
                }
                value = args[++i];
            }
            if (out.values.contains(name)) {
                std::fprintf(stderr, "error: --%s given twice\n", shown(name).c_str());
                return std::nullopt;
            }
            out.values[name] = value;
        } else {
            std::fprintf(stderr, "error: unknown option --%s\n", shown(name).c_str());
            return std::nullopt;
        }
    }
    return out;
}

std::optional<std::int64_t> parseInt(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(std::string_view text, char sep, bool single) {
    const std::size_t pos = text.find(sep);
    if (pos == std::string_view::npos) {
        auto v = single ? parseInt(text) : std::nullopt;
        return v ? std::optional(std::pair{*v, *v}) : std::nullopt;
    }
    auto a = parseInt(text.substr(0, pos));
    auto b = parseInt(text.substr(pos + 1));
    return a && b ? std::optional(std::pair{*a, *b}) : std::nullopt;
}

int fail(const Error& error) {
    return app::fail(error, kExitFailure);
}

int usageError(std::string_view sub, const std::string& message) {
    return app::usageError(fmt::format("review {}", sub), message);
}

} // namespace kl::app::review
