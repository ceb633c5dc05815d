#include "cli/CliSupport.h"

#include "report/TextEscape.h"
#include "support/AtomicFile.h"
#include "support/ResourcePaths.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace kl::app {
namespace fs = std::filesystem;

std::vector<fs::path> resourceBases() {
    std::vector<fs::path> bases;
    if (const fs::path root = core::dataRoot(); !root.empty()) {
        bases.push_back(root); // installed data, or the source tree of a build
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        bases.push_back(exe.parent_path());
    }
    return bases;
}

Expected<void> writeText(const std::string& path, const std::string& text, const std::string& what) {
    if (path == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return {};
    }
    // Atomically: a reader (or a pipeline watching the folder) never sees half a file, and a failed write leaves
    // the previous one in place.
    return core::writeFileAtomically(path, text, /*privateToOwner=*/false, what);
}

void printText(std::FILE* stream, std::string_view text) {
    const std::string shown = core::report::terminalText(text, true);
    std::fwrite(shown.data(), 1, shown.size(), stream);
}

int fail(const Error& error, int code) {
    printText(stderr, formatError(error) + "\n");
    return code;
}

bool printHelpIfAsked(const std::vector<std::string>& args, std::string_view usage) {
    if (std::none_of(args.begin(), args.end(), [](const std::string& a) { return a == "-h" || a == "--help"; })) {
        return false;
    }
    std::fwrite(usage.data(), 1, usage.size(), stdout);
    return true;
}

int usageError(const Error& error, std::string_view usage) {
    std::fprintf(stderr, "%s\n\n%.*s", formatError(error).c_str(), static_cast<int>(usage.size()), usage.data());
    return kExitUsage;
}

int usageError(std::string_view command, std::string_view message) {
    printText(stderr, fmt::format("error: {}\nRun 'kernellens-cli {} --help' for usage.\n",
                                  core::report::terminalText(message), command));
    return kExitUsage;
}

namespace {

bool listed(const std::vector<std::string_view>& flags, std::string_view flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

} // namespace

std::optional<std::string> CommandLine::get(std::string_view flag) const {
    const auto it = values.find(flag);
    return it == values.end() ? std::nullopt : std::optional(it->second);
}

Expected<CommandLine> parseCommandLine(const std::vector<std::string>& args, const OptionSpec& spec) {
    CommandLine line;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::optional<std::string> value;
        if (const std::size_t eq = flag.find('='); spec.closed && flag.starts_with("--") && eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag.resize(eq);
        }
        if (!value && listed(spec.switches, flag)) {
            line.switches.insert(flag);
            continue;
        }
        if (!listed(spec.valued, flag)) {
            if (spec.closed && flag.size() > 1 && flag.starts_with("-")) {
                return makeError(ErrorCode::InvalidArgument, fmt::format("unknown option '{}'", flag));
            }
            line.positional.push_back(args[i]);
            continue;
        }
        if (!value) {
            if (i + 1 >= args.size()) {
                return makeError(ErrorCode::InvalidArgument, flag + " needs a value");
            }
            value = args[++i];
        }
        if (spec.closed && line.values.contains(flag)) {
            return makeError(ErrorCode::InvalidArgument, flag + " given twice");
        }
        line.values[flag] = std::move(*value);
    }
    return line;
}

Expected<std::size_t> parseCount(std::string_view flag, const std::string& value) {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("{} needs a non-negative whole number", flag));
    }
    return n;
}

std::optional<std::int64_t> parseInteger(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::string shown(std::string_view text) {
    return core::report::terminalText(text);
}

} // namespace kl::app
