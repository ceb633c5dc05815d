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
    return 2;
}

int usageError(std::string_view command, std::string_view message) {
    printText(stderr, fmt::format("error: {}\nRun 'kernellens-cli {} --help' for usage.\n",
                                  core::report::terminalText(message), command));
    return 2;
}

Expected<std::vector<std::string>> takeOptions(const std::vector<std::string>& args,
                                               std::initializer_list<std::string_view> valued, const TakeOption& take) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (std::find(valued.begin(), valued.end(), a) == valued.end()) {
            rest.push_back(a);
            continue;
        }
        if (i + 1 >= args.size()) {
            return makeError(ErrorCode::InvalidArgument, a + " needs a value");
        }
        if (auto taken = take(a, args[++i]); !taken) {
            return std::unexpected(taken.error());
        }
    }
    return rest;
}

Expected<std::size_t> parseCount(std::string_view flag, const std::string& value) {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("{} needs a non-negative whole number", flag));
    }
    return n;
}

} // namespace kl::app
