#include "findings/MigrationSource.h"

#include "source/CudaLinkComments.h"
#include "support/Try.h"

#include <algorithm>
#include <filesystem>

namespace kl::core::findings {

namespace fs = std::filesystem;

namespace {

/// The IR's name for `file` (IR files are relative to the task folder or a package's common folder): the entry
/// that ends with the file's path relative to the task folder, else its file name.
std::string irName(const fs::path& file, const fs::path& folder, const sim::KernelIr& ir) {
    const std::string relative = file.lexically_relative(folder).generic_string();
    for (const std::string& f : ir.files) {
        if (f == relative || (f.size() > relative.size() && f.ends_with("/" + relative))) {
            return f;
        }
    }
    return relative.empty() ? file.filename().string() : relative;
}

/// An IR file name as a path: IR names are relative to the task folder, or to a folder above it when the kernel's
/// package root lies outside the task folder. Empty when not found.
fs::path locate(const std::string& name, const fs::path& folder) {
    std::error_code ec;
    fs::path base = folder;
    for (int up = 0; up < 4 && !base.empty(); ++up) {
        const fs::path candidate = base / name;
        if (fs::is_regular_file(candidate, ec)) {
            return candidate;
        }
        if (base == base.parent_path()) {
            break;
        }
        base = base.parent_path();
    }
    return {};
}

} // namespace

Expected<std::optional<MigrationSource>> loadMigrationSource(const TaskSpec& task, const sim::KernelIr& ir) {
    if (task.cudaFile.empty()) {
        return std::optional<MigrationSource>{};
    }
    auto cuda = readTextFile(task.cudaFile);
    KL_TRY(cuda);
    auto nki = readTextFile(task.kernelFile);
    KL_TRY(nki);
    MigrationSource m;
    m.cudaFile = task.cudaFile.lexically_relative(task.folder).generic_string();
    m.cudaText = std::move(*cuda);
    m.cudaKernel = task.cudaKernel;
    m.nkiFile = irName(task.kernelFile, task.folder, ir);
    const int cudaLines = countLines(m.cudaText);
    for (LineLink& l : parseCudaLinkComments(*nki, cudaLines).links) {
        m.links.push_back({m.nkiFile, std::move(l)});
    }
    // `# cuda:` comments count in every file of the kernel's package (a helper module's lines link too).
    for (const std::string& f : ir.files) {
        if (f == m.nkiFile) {
            continue;
        }
        const fs::path path = locate(f, task.folder);
        if (path.empty()) {
            continue;
        }
        if (auto text = readTextFile(path)) {
            for (LineLink& l : parseCudaLinkComments(*text, cudaLines).links) {
                m.links.push_back({f, std::move(l)});
            }
        }
    }
    return std::optional<MigrationSource>{std::move(m)};
}

void addLinkedCudaLines(std::vector<Finding>& findings, const MigrationSource& migration) {
    auto linkedAt = [&](const std::string& file, int line) -> const LineLink* {
        const LineLink* best = nullptr;
        for (const MigrationSource::FileLink& fl : migration.links) {
            const LineLink& l = fl.link;
            if (fl.nkiFile != file || l.state == LinkState::Rejected || line < l.nkiFirst || line > l.nkiLast) {
                continue;
            }
            if (best == nullptr || l.nkiLast - l.nkiFirst < best->nkiLast - best->nkiFirst) {
                best = &l;
            }
        }
        return best;
    };
    for (Finding& f : findings) {
        for (EvidenceItem& e : f.evidence) {
            std::vector<SourceRange> added;
            for (const SourceRange& r : e.lines) {
                const LineLink* l = r.side == SourceSide::Nki ? linkedAt(r.file, r.firstLine) : nullptr;
                if (l == nullptr) {
                    continue;
                }
                const SourceRange cuda{SourceSide::Cuda, migration.cudaFile, l->cudaFirst, l->cudaLast};
                if (std::find(e.lines.begin(), e.lines.end(), cuda) == e.lines.end() &&
                    std::find(added.begin(), added.end(), cuda) == added.end()) {
                    added.push_back(cuda);
                }
            }
            for (SourceRange& r : added) {
                if (e.lines.size() < kMaxRanges) {
                    e.lines.push_back(std::move(r));
                }
            }
        }
    }
}

} // namespace kl::core::findings
