#include "cli/VisualReports.h"

#include "support/ResourcePaths.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace kl::app {
namespace fs = std::filesystem;

namespace {

VisualReportWriter g_writer = nullptr; // set once by main() before any command runs

constexpr const char* kQtHalfName = "kernellens-cli-qt";

} // namespace

void installVisualReportWriter(VisualReportWriter writer) {
    g_writer = writer;
}

VisualReportWriter visualReportWriter() {
    return g_writer;
}

std::optional<fs::path> qtHalfProgram() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) {
        return std::nullopt;
    }
    const fs::path dir = exe.parent_path();
    for (const fs::path& candidate : {dir / kQtHalfName, dir / ".." / "libexec" / "kernellens" / kQtHalfName}) {
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return std::nullopt;
}

Error forwardToQtHalf(const fs::path& program, const std::string& command, const std::vector<std::string>& args) {
    std::vector<std::string> words{kQtHalfName, command};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (std::string& w : words) {
        argv.push_back(w.data());
    }
    argv.push_back(nullptr);
    // The half's data is this program's: installed, the half lives in libexec/kernellens, from where its own
    // ../share does not lead to the front end and the resources.
    if (const fs::path data = core::dataRoot(); !data.empty()) {
        ::setenv("KL_DATA_DIR", data.c_str(), 1);
    }
    std::fflush(stdout);
    std::fflush(stderr);
    ::execv(program.c_str(), argv.data());
    return Error{ErrorCode::Io,
                 fmt::format("cannot run {} for the report's images: {}", program.string(), std::strerror(errno))};
}

} // namespace kl::app
