#include "cli/CliSupport.h"

#include "report/TextEscape.h"
#include "support/AtomicFile.h"
#include "support/ResourcePaths.h"

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

} // namespace kl::app
