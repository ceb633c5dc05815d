#include "trace/KernelLocation.h"

#include "support/PathInside.h"
#include "support/Try.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

/// "/" and the home folder and its ancestors: far too much to show a kernel that happens to sit there.
bool tooBroad(const fs::path& folder) {
    if (folder == folder.root_path()) {
        return true;
    }
    // The shared scratch folders: mounting one would show the kernel everyone's files there and would hide
    // the sandbox's own private /tmp, so Python would find no writable temporary folder.
    if (folder == "/tmp" || folder == "/var/tmp" || folder == "/dev/shm") {
        return true;
    }
    const char* home = std::getenv("HOME");
    std::error_code ec;
    const fs::path realHome = home && *home ? fs::weakly_canonical(home, ec) : fs::path();
    return !realHome.empty() && isInsideOrSame(realHome, folder);
}

/// The top folder of the package holding `kernelFile` (walking up `__init__.py`), or empty for a script.
fs::path packageTop(const fs::path& kernelFile) {
    std::error_code ec;
    fs::path root;
    for (fs::path folder = kernelFile.parent_path(); fs::is_regular_file(folder / "__init__.py", ec);
         folder = folder.parent_path()) {
        root = folder;
        if (folder == folder.root_path()) {
            break;
        }
    }
    return root;
}

Expected<fs::path> canonicalOrError(const fs::path& path, const char* what) {
    std::error_code ec;
    fs::path real = fs::canonical(path, ec);
    if (ec) {
        return makeError(ErrorCode::NotFound, std::string("no such ") + what, path.string());
    }
    return real;
}

/// kernel_file and package_root from task.json, read leniently: the front end reports a broken task.json.
void readTaskPaths(const fs::path& taskDir, fs::path& kernelFile, fs::path& packageRoot) {
    std::ifstream in(taskDir / "task.json", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object()) {
        return;
    }
    std::error_code ec;
    if (auto k = doc.find("kernel_file"); k != doc.end() && k->is_string()) {
        kernelFile = fs::canonical(taskDir / k->get<std::string>(), ec);
    }
    if (auto p = doc.find("package_root"); p != doc.end() && p->is_string() && !p->get<std::string>().empty()) {
        packageRoot = fs::canonical(taskDir / p->get<std::string>(), ec);
    }
}

void dropNested(std::vector<fs::path>& paths) {
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    std::vector<fs::path> kept;
    for (const fs::path& p : paths) {
        const bool covered =
            std::any_of(kept.begin(), kept.end(), [&](const fs::path& k) { return p == k || isInsideOrSame(p, k); });
        if (!covered) {
            kept.push_back(p);
        }
    }
    paths = std::move(kept);
}

} // namespace

Expected<KernelLocation> locateKernel(const TraceRequest& request) {
    KernelLocation where;
    fs::path taskPackageRoot;
    if (!request.taskDir.empty()) {
        auto dir = canonicalOrError(request.taskDir, "task folder");
        KL_TRY(dir);
        where.taskDir = *dir;
        where.readOnly.push_back(*dir);
        readTaskPaths(*dir, where.kernelFile, taskPackageRoot);
    } else {
        auto file = canonicalOrError(request.kernelFile, "kernel file");
        KL_TRY(file);
        where.kernelFile = *file;
    }
    if (!request.packageRoot.empty()) {
        auto root = canonicalOrError(request.packageRoot, "package root folder");
        KL_TRY(root);
        where.packageRoot = *root;
    }
    for (const fs::path& root : {where.packageRoot, taskPackageRoot}) {
        if (!root.empty() && !tooBroad(root)) {
            where.readOnly.push_back(root);
        }
    }
    if (!where.kernelFile.empty()) {
        const fs::path folder = where.kernelFile.parent_path();
        where.readOnly.push_back(tooBroad(folder) ? where.kernelFile : folder);
        if (const fs::path top = packageTop(where.kernelFile); !top.empty() && !tooBroad(top)) {
            where.readOnly.push_back(top);
        }
    }
    dropNested(where.readOnly);
    return where;
}

} // namespace kl::core
