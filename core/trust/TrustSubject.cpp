#include "trust/TrustSubject.h"

#include "review/ReviewFile.h"
#include "task/TaskSpec.h"
#include "trust/Sha256.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <fstream>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kHashVersion = "kernellens-trust-1";

/// Files Python can import or that steer imports: sources, byte code, extension modules, path files.
bool isImportable(const fs::path& file) {
    static const std::array<std::string_view, 6> kExtensions = {".py", ".pyc", ".pyo", ".pyw", ".so", ".pth"};
    const std::string ext = file.extension().string();
    return std::find(kExtensions.begin(), kExtensions.end(), ext) != kExtensions.end();
}

/// Hashes `path` as a field (its length, then its bytes), reading it in blocks; counts against `budget`.
Expected<void> hashFile(Sha256& hash, const fs::path& path, std::uintmax_t& budget) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        return makeError(ErrorCode::Io, "cannot read a file to hash it", path.string());
    }
    if (size > budget) {
        return makeError(ErrorCode::Unsupported, "the kernel's folder holds too much code to hash", path.string());
    }
    budget -= size;
    std::ifstream in(path, std::ios::binary);
    hash.updateLength(size);
    std::array<char, 64 * 1024> block{};
    std::uintmax_t read = 0;
    while (in && read < size) {
        in.read(block.data(), static_cast<std::streamsize>(std::min<std::uintmax_t>(block.size(), size - read)));
        hash.update({block.data(), static_cast<std::size_t>(in.gcount())});
        read += static_cast<std::uintmax_t>(in.gcount());
    }
    if (read != size || in.peek() != EOF) {
        return makeError(ErrorCode::Io, "cannot read a file to hash it (or it changed while being read)",
                         path.string());
    }
    return {};
}

/// Every importable file under `root`, sorted; symlinked and hidden folders are not entered (the front end's
/// imports cannot name a folder whose name starts with a dot).
Expected<std::vector<fs::path>> importableFiles(const fs::path& root, const HashLimits& limits) {
    std::vector<fs::path> files;
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        return makeError(ErrorCode::Io, "cannot list the kernel's folder", root.string());
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) {
            return makeError(ErrorCode::Io, "cannot list the kernel's folder", root.string());
        }
        const fs::directory_entry& entry = *it;
        std::error_code typeError;
        if (entry.is_directory(typeError)) {
            if (entry.is_symlink(typeError) || entry.path().filename().string().starts_with('.')) {
                it.disable_recursion_pending();
            }
            continue;
        }
        if (entry.is_regular_file(typeError) && isImportable(entry.path())) {
            files.push_back(entry.path());
            if (files.size() > limits.maxFiles) {
                return makeError(ErrorCode::Unsupported,
                                 fmt::format("more than {} Python files under the kernel's folder", limits.maxFiles),
                                 root.string());
            }
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// Hashes the kernel and everything importable beside it; `taskJson` first when there is one.
Expected<std::pair<std::string, std::size_t>> hashCode(std::string_view kind, const std::string* taskJson,
                                                       const fs::path& kernel, const fs::path& root,
                                                       const HashLimits& limits) {
    auto files = importableFiles(root, limits);
    KL_TRY(files);
    Sha256 hash;
    hash.updateField(kHashVersion);
    hash.updateField(kind);
    if (taskJson) {
        hash.updateField("task.json");
        hash.updateField(*taskJson);
    }
    std::uintmax_t budget = limits.maxBytes;
    hash.updateField("kernel:" + kernel.lexically_relative(root).generic_string());
    KL_TRY(hashFile(hash, kernel, budget));
    for (const fs::path& file : *files) {
        hash.updateField(file.lexically_relative(root).generic_string());
        KL_TRY(hashFile(hash, file, budget));
    }
    return std::pair{"sha256:" + hash.hex(), files->size() + 1};
}

void fillHash(TrustSubject& subject, Expected<std::pair<std::string, std::size_t>> hashed) {
    if (hashed) {
        subject.contentHash = hashed->first;
        subject.preview.hashedFiles = hashed->second;
    } else {
        subject.hashProblem = formatError(hashed.error());
    }
}

fs::path absoluteNormal(const fs::path& p) {
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec);
    return (ec ? p : abs).lexically_normal();
}

std::string shapeText(const std::vector<long long>& shape) {
    std::string out;
    for (long long d : shape) {
        out += fmt::format("{}{}", out.empty() ? "" : "x", d);
    }
    return out.empty() ? "scalar" : out;
}

/// `scalars` and `package_root` from task.json, read without trusting their types.
void readTaskExtras(const std::string& text, const fs::path& folder, RunPreview& preview, fs::path& packageRoot) {
    const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object()) {
        return;
    }
    if (auto s = doc.find("scalars"); s != doc.end() && s->is_object()) {
        for (const auto& [name, value] : s->items()) {
            preview.scalars.push_back(name + " = " + (value.is_string() ? value.get<std::string>() : value.dump()));
        }
    }
    if (auto p = doc.find("package_root"); p != doc.end() && p->is_string() && !p->get<std::string>().empty()) {
        packageRoot = (folder / p->get<std::string>()).lexically_normal();
    }
}

} // namespace

fs::path codeRootOf(const fs::path& kernelFile, const fs::path& packageRoot) {
    if (!packageRoot.empty()) {
        return absoluteNormal(packageRoot).parent_path();
    }
    std::error_code ec;
    fs::path folder = fs::weakly_canonical(absoluteNormal(kernelFile), ec).parent_path();
    if (ec) {
        folder = absoluteNormal(kernelFile).parent_path();
    }
    fs::path top;
    while (fs::is_regular_file(folder / "__init__.py", ec)) {
        top = folder;
        if (folder.parent_path() == folder) {
            break;
        }
        folder = folder.parent_path();
    }
    return top.empty() ? folder : top.parent_path();
}

Expected<TrustSubject> describeTaskFolder(const fs::path& folder, HashLimits limits) {
    auto spec = loadTaskSpec(folder);
    KL_TRY(spec);
    auto taskJson = readTextFile(folder / "task.json");
    KL_TRY(taskJson);
    TrustSubject subject;
    subject.kind = TrustSubject::Kind::TaskFolder;
    subject.location = absoluteNormal(folder);
    RunPreview& p = subject.preview;
    p.title = spec->title;
    p.kernelFile = spec->kernelFile;
    p.kernelName = spec->kernelName;
    for (const TaskArgument& arg : spec->args) {
        p.arguments.push_back(fmt::format("{}: {} {}", arg.name, shapeText(arg.shape), arg.dtype));
    }
    fs::path packageRoot;
    readTaskExtras(*taskJson, subject.location, p, packageRoot);
    p.codeRoot = codeRootOf(spec->kernelFile, packageRoot);
    fillHash(subject, hashCode("task", &*taskJson, absoluteNormal(spec->kernelFile), p.codeRoot, limits));
    return subject;
}

Expected<TrustSubject> describeKernelFile(const fs::path& file, HashLimits limits) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
        return makeError(ErrorCode::NotFound, "no such kernel file", file.string());
    }
    TrustSubject subject;
    subject.kind = TrustSubject::Kind::KernelFile;
    subject.location = absoluteNormal(file);
    subject.preview.title = subject.location.filename().string();
    subject.preview.kernelFile = subject.location;
    subject.preview.codeRoot = codeRootOf(subject.location);
    fillHash(subject, hashCode("kernel", nullptr, subject.location, subject.preview.codeRoot, limits));
    return subject;
}

Expected<TrustSubject> describeReview(ReviewFile& review) {
    auto tasks = review.tasks().list();
    KL_TRY(tasks);
    std::sort(tasks->begin(), tasks->end(), [](const Task& a, const Task& b) { return a.folder < b.folder; });
    TrustSubject subject;
    subject.kind = TrustSubject::Kind::Review;
    subject.location = absoluteNormal(review.path());
    subject.preview.title = subject.location.filename().string();
    Sha256 hash;
    hash.updateField(kHashVersion);
    hash.updateField("review");
    for (const Task& task : *tasks) {
        auto files = review.tasks().files(task.id);
        KL_TRY(files);
        std::sort(files->begin(), files->end(), [](const TaskFile& a, const TaskFile& b) { return a.path < b.path; });
        hash.updateField(task.folder);
        hash.updateField(std::to_string(files->size()));
        std::string kernel;
        for (const TaskFile& f : *files) {
            hash.updateField(f.role);
            hash.updateField(f.path);
            hash.updateField(f.content);
            kernel = f.role == "nki" ? f.path : kernel;
        }
        subject.preview.hashedFiles += files->size();
        subject.preview.tasks.push_back(fmt::format("{} ({}/{})", task.title, task.folder, kernel));
    }
    subject.contentHash = "sha256:" + hash.hex();
    // The review's author is the first reviewer it names: the one given when it was made (`review new
    // --reviewer`, the GUI's reviewer name), else the first to annotate it.
    auto reviewers = review.reviewers().list();
    KL_TRY(reviewers);
    if (!reviewers->empty()) {
        subject.preview.author = reviewers->front().name;
        subject.authors.push_back(subject.preview.author);
    }
    return subject;
}

} // namespace kl::core
