#include "batch/BatchTask.h"

#include "trust/Sha256.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>

namespace kl::core::batch {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxHashedBytes = 256ull << 20; // a task folder is sources and small data

void findTasks(const fs::path& dir, const fs::path& root, int depth, std::vector<BatchTask>& out) {
    std::error_code ec;
    if (fs::is_regular_file(dir / "task.json", ec)) {
        out.push_back({fs::relative(dir, root, ec).generic_string(), fs::absolute(dir, ec)});
        return; // a task folder's own subfolders are its files, not more tasks
    }
    if (depth <= 0) {
        return;
    }
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (it->is_directory(ec) && !it->is_symlink(ec) && it->path().filename().string().front() != '.') {
            findTasks(it->path(), root, depth - 1, out);
        }
    }
}

Expected<std::vector<BatchTask>> readManifest(const fs::path& manifest, fs::path& root) {
    std::ifstream in(manifest);
    if (!in) {
        return makeError(ErrorCode::Io, "cannot read the manifest", manifest.string());
    }
    root = fs::absolute(manifest).parent_path();
    std::vector<BatchTask> out;
    int lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        line.erase(0, line.find_first_not_of(" \t"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (line.empty() || line.front() == '#') {
            continue;
        }
        std::error_code ec;
        const fs::path folder = fs::weakly_canonical(root / line, ec);
        if (!fs::is_regular_file(folder / "task.json", ec)) {
            return makeError(ErrorCode::NotFound, fmt::format("'{}' is not a task folder (no task.json)", line),
                             manifest.string(), lineNo, "list one task folder per line, relative to the manifest");
        }
        out.push_back({fs::relative(folder, root, ec).generic_string(), folder});
    }
    return out;
}

} // namespace

Expected<std::vector<BatchTask>> discoverTasks(const fs::path& dirOrManifest, fs::path& root, int maxDepth) {
    std::error_code ec;
    std::vector<BatchTask> tasks;
    if (fs::is_regular_file(dirOrManifest, ec)) {
        auto listed = readManifest(dirOrManifest, root);
        if (!listed) {
            return listed;
        }
        tasks = std::move(*listed);
    } else if (fs::is_directory(dirOrManifest, ec)) {
        root = fs::absolute(dirOrManifest, ec).lexically_normal();
        findTasks(root, root, maxDepth, tasks);
        if (tasks.size() == 1 && tasks.front().key == ".") {
            root = root.parent_path(); // the folder is itself a task: file it under its own name
            tasks.front().key = tasks.front().folder.lexically_normal().filename().string();
        }
    } else {
        return makeError(ErrorCode::NotFound, "no such folder or manifest", dirOrManifest.string());
    }
    std::ranges::sort(tasks, {}, &BatchTask::key);
    const auto dup = std::ranges::adjacent_find(tasks, {}, &BatchTask::key);
    if (dup != tasks.end()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("task '{}' is listed twice", dup->key),
                         dirOrManifest.string());
    }
    return tasks;
}

Expected<std::string> taskContentHash(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        if (it->is_directory(ec) && it->path().filename() == "__pycache__") {
            it.disable_recursion_pending();
        } else if (it->is_regular_file(ec)) {
            files.push_back(it->path());
        }
    }
    if (ec) {
        return makeError(ErrorCode::Io, fmt::format("cannot list the task folder: {}", ec.message()), folder.string());
    }
    std::ranges::sort(files);
    Sha256 hash;
    std::uintmax_t total = 0;
    std::string buffer(1 << 16, '\0');
    for (const fs::path& f : files) {
        total += fs::file_size(f, ec);
        if (total > kMaxHashedBytes) {
            return makeError(ErrorCode::InvalidArgument, "task folder holds more than 256 MiB", folder.string(), 0,
                             "keep data sets outside task folders");
        }
        hash.updateField(fs::relative(f, folder, ec).generic_string());
        hash.updateLength(fs::file_size(f, ec));
        std::ifstream in(f, std::ios::binary);
        while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
            hash.update(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
        }
    }
    return "sha256:" + hash.hex();
}

std::uint32_t shardOf(const std::string& key, std::uint32_t count) {
    std::uint64_t h = 1469598103934665603ull; // FNV-1a 64
    for (unsigned char c : key) {
        h = (h ^ c) * 1099511628211ull;
    }
    return count == 0 ? 0 : static_cast<std::uint32_t>(h % count);
}

Expected<std::pair<std::uint32_t, std::uint32_t>> parseShard(const std::string& text) {
    const auto slash = text.find('/');
    std::uint32_t i = 0, n = 0;
    auto whole = [](const char* first, const char* last, std::uint32_t& v) {
        const auto [end, ec] = std::from_chars(first, last, v);
        return ec == std::errc() && end == last && first != last;
    };
    const bool ok = slash != std::string::npos && whole(text.data(), text.data() + slash, i) &&
                    whole(text.data() + slash + 1, text.data() + text.size(), n) && n >= 1 && n <= 100000 && i >= 1 &&
                    i <= n;
    if (!ok) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("--shard '{}' must be I/N with 1 <= I <= N", text));
    }
    return std::pair{i - 1, n};
}

} // namespace kl::core::batch
