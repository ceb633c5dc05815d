#include "support/ResourcePaths.h"

#include <cstdlib>
#include <system_error>
#include <unistd.h>

#ifndef KL_SOURCE_DIR
#define KL_SOURCE_DIR ""
#endif

namespace kl::core {
namespace fs = std::filesystem;

namespace {

bool holdsResources(const fs::path& root) {
    std::error_code ec;
    return !root.empty() && fs::is_directory(root / "resources", ec);
}

fs::path executableDir() {
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path{} : exe.parent_path();
}

} // namespace

fs::path dataRoot() {
    if (const char* env = std::getenv("KL_DATA_DIR"); env && holdsResources(env)) {
        return env;
    }
    // An installed program uses its own data (PREFIX/bin/.. /share/kernellens), never a source tree that
    // happens to exist on the machine; a program in a build tree has no such folder beside it.
    const auto installed = executableDir() / ".." / "share" / "kernellens";
    if (holdsResources(installed)) {
        return fs::weakly_canonical(installed);
    }
    if (holdsResources(KL_SOURCE_DIR)) {
        return KL_SOURCE_DIR;
    }
    return {};
}

fs::path resourcesDir() {
    return dataRoot() / "resources";
}
fs::path examplesDir() {
    return dataRoot() / "examples";
}
fs::path frontendEntryScript() {
    return dataRoot() / "sim" / "frontend" / "kltrace_main.py";
}

fs::path pythonInterpreter() {
    if (const char* env = std::getenv("KL_PYTHON"); env && *env) {
        return env;
    }
    // Debian's interpreter first: a user's pyenv python may shadow it on PATH.
    if (::access("/usr/bin/python3", X_OK) == 0) {
        return "/usr/bin/python3";
    }
    return "python3";
}

} // namespace kl::core
