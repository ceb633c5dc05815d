#include "compat/CompatPlan.h"

#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

/// True when `path` is `prefix` or lies under it, comparing whole components.
bool isAtOrUnder(const fs::path& path, const fs::path& prefix) {
    if (prefix.empty() || prefix == ".") {
        return true;
    }
    auto p = path.begin();
    for (auto q = prefix.begin(); q != prefix.end(); ++q, ++p) {
        if (q->empty() && std::next(q) == prefix.end()) {
            return true; // a trailing separator ("core/") adds an empty last component
        }
        if (p == path.end() || *p != *q) {
            return false;
        }
    }
    return true;
}

CompatJob jobFromEntry(const CompatEntry& entry, const CompatSettings& settings) {
    CompatJob job;
    job.file = entry.file;
    job.kernel = entry.kernel;
    job.hardware = entry.hardware.empty() ? settings.hardware : entry.hardware;
    job.shapeSource = entry.shapeSource;
    TraceRequest& t = job.trace;
    t.kernelFile = settings.root / entry.file;
    t.kernelName = entry.kernel;
    t.packageRoot = entry.packageRoot.empty() ? settings.packageRoot : settings.root / entry.packageRoot;
    t.timeoutSeconds = settings.timeoutSeconds;
    t.allowUnsandboxed = settings.allowUnsandboxed;
    for (const CompatArgument& arg : entry.args) {
        t.argSpecs.push_back(CompatPlan::argSpec(arg));
    }
    for (const auto& [name, text] : entry.scalars) {
        t.scalars.push_back(name + "=" + text);
    }
    if (!entry.grid.empty()) {
        t.grid = fmt::format("{}", fmt::join(entry.grid, "x"));
    }
    return job;
}

/// Walks the paths given without a manifest and collects their jobs.
class PathPlanner {
public:
    PathPlanner(const CompatSettings& settings, const KernelLister& lister) : m_settings(settings), m_lister(lister) {}

    Expected<void> add(const std::string& given) {
        const fs::path path = fs::path(given).lexically_normal();
        std::error_code ec;
        if (fs::is_directory(path, ec)) {
            if (fs::exists(path / "task.json", ec)) {
                addTask(path);
            } else {
                walk(path);
            }
            return {};
        }
        if (!fs::exists(path, ec)) {
            return makeError(ErrorCode::NotFound, "no such task folder, kernel file or folder", given);
        }
        if (path.extension() != ".py") {
            return makeError(ErrorCode::InvalidArgument, "not a task folder, a .py kernel file or a folder", given);
        }
        addFile(path, /*named=*/true);
        return {};
    }

    std::vector<CompatJob> take() { return std::move(m_jobs); }

private:
    CompatJob baseJob(const fs::path& path) const {
        CompatJob job;
        job.file = path.lexically_normal().generic_string();
        job.hardware = m_settings.hardware;
        job.trace.packageRoot = m_settings.packageRoot;
        job.trace.timeoutSeconds = m_settings.timeoutSeconds;
        job.trace.allowUnsandboxed = m_settings.allowUnsandboxed;
        return job;
    }

    void addTask(const fs::path& folder) {
        CompatJob job = baseJob(folder);
        job.trace.taskDir = folder;
        if (auto spec = loadTaskSpec(folder)) {
            job.kernel = spec->kernelName;
        } else {
            job.error = spec.error();
        }
        m_jobs.push_back(std::move(job));
    }

    /// `named`: the user gave this file, so a file without kernels is reported rather than passed over.
    void addFile(const fs::path& file, bool named) {
        CompatJob job = baseJob(file);
        job.trace.kernelFile = file;
        auto kernels = m_lister(job.trace);
        if (!kernels) {
            job.error = kernels.error();
            m_jobs.push_back(std::move(job));
            return;
        }
        if (kernels->empty() && named) {
            job.skipReason = "no NKI kernels in this file";
            m_jobs.push_back(std::move(job));
        }
        for (const KernelInfo& kernel : *kernels) {
            CompatJob k = job;
            k.kernel = kernel.name;
            k.trace.kernelName = kernel.name;
            if (const auto needed = kernel.requiredParameters(); !needed.empty()) {
                k.skipReason = fmt::format("needs arguments: {} (give a manifest)", fmt::join(needed, ", "));
            }
            m_jobs.push_back(std::move(k));
        }
    }

    void walk(const fs::path& folder) {
        std::vector<fs::directory_entry> entries;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(folder, ec)) {
            entries.push_back(e);
        }
        std::sort(entries.begin(), entries.end(),
                  [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
        for (const auto& e : entries) {
            const std::string name = e.path().filename().string();
            if (name.starts_with(".") || name == "__pycache__") {
                continue;
            }
            if (e.is_directory(ec)) {
                if (fs::exists(e.path() / "task.json", ec)) {
                    addTask(e.path());
                } else {
                    walk(e.path());
                }
            } else if (e.path().extension() == ".py" && e.is_regular_file(ec)) {
                addFile(e.path(), /*named=*/false);
            }
        }
    }

    const CompatSettings& m_settings;
    const KernelLister& m_lister;
    std::vector<CompatJob> m_jobs;
};

} // namespace

std::string CompatPlan::argSpec(const CompatArgument& arg) {
    return fmt::format("{}={}:{}", arg.name, fmt::join(arg.shape, "x"), arg.dtype);
}

Expected<std::vector<CompatJob>> CompatPlan::fromManifest(const CompatManifest& manifest,
                                                          const CompatSettings& settings,
                                                          const std::vector<std::string>& only) {
    std::vector<CompatJob> jobs;
    std::vector<bool> used(only.size(), false);
    for (const CompatEntry& entry : manifest.entries) {
        bool wanted = only.empty();
        for (std::size_t i = 0; i < only.size(); ++i) {
            if (isAtOrUnder(fs::path(entry.file).lexically_normal(), fs::path(only[i]).lexically_normal())) {
                wanted = true;
                used[i] = true;
            }
        }
        if (wanted) {
            jobs.push_back(jobFromEntry(entry, settings));
        }
    }
    for (std::size_t i = 0; i < only.size(); ++i) {
        if (!used[i]) {
            return makeError(ErrorCode::NotFound, "no manifest entry is at or under this path", only[i], 0,
                             "with --manifest, PATHs choose entries by their \"file\", relative to --root");
        }
    }
    return jobs;
}

Expected<std::vector<CompatJob>> CompatPlan::fromPaths(const std::vector<std::string>& paths,
                                                       const CompatSettings& settings, const KernelLister& lister) {
    PathPlanner planner(settings, lister);
    for (const std::string& path : paths) {
        KL_TRY(planner.add(path));
    }
    return planner.take();
}

} // namespace kl::core
