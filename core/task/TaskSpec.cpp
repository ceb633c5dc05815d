#include "task/TaskSpec.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace kl::core {
namespace fs = std::filesystem;
using nlohmann::json;

Expected<std::string> readTextFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot open file", path.string());
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

namespace {

Expected<std::vector<TaskArgument>> parseArgs(const json& list, const std::string& file) {
    std::vector<TaskArgument> args;
    if (!list.is_array()) {
        return makeError(ErrorCode::Parse, "'args' must be a list of {name, shape, dtype}", file);
    }
    for (const auto& item : list) {
        if (!item.is_object() || !item.contains("name") || !item.contains("shape") || !item.contains("dtype")) {
            return makeError(ErrorCode::Parse, "each entry of 'args' needs 'name', 'shape' and 'dtype'", file);
        }
        TaskArgument arg;
        arg.name = item["name"].get<std::string>();
        arg.shape = item["shape"].get<std::vector<long long>>();
        arg.dtype = item["dtype"].get<std::string>();
        args.push_back(std::move(arg));
    }
    return args;
}

} // namespace

std::string TaskSpec::hardwareSpec() const {
    const bool isFile = hardware.ends_with(".json") || hardware.find('/') != std::string::npos;
    return isFile ? (folder / hardware).string() : hardware;
}

namespace {

/// `extra_files`: relative paths of existing files inside the task folder.
Expected<std::vector<fs::path>> parseExtraFiles(const json& list, const fs::path& folder, const std::string& file) {
    if (!list.is_array()) {
        return makeError(ErrorCode::Parse, "task.json: 'extra_files' must be a list of file paths", file);
    }
    std::vector<fs::path> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string()) {
            return makeError(ErrorCode::Parse, fmt::format("task.json: extra_files[{}] must be a path", i), file);
        }
        const fs::path rel = list[i].get<std::string>();
        const fs::path full = (folder / rel).lexically_normal();
        const auto inside = full.lexically_relative(folder);
        if (rel.is_absolute() || inside.empty() || *inside.begin() == "..") {
            return makeError(ErrorCode::Parse,
                             fmt::format("task.json: extra_files[{}] '{}' is outside the task folder", i, rel.string()),
                             file);
        }
        std::error_code ec;
        if (!fs::is_regular_file(full, ec)) {
            return makeError(ErrorCode::NotFound,
                             fmt::format("task.json: extra_files[{}] '{}' does not exist", i, rel.string()), file);
        }
        out.push_back(full);
    }
    return out;
}

} // namespace

Expected<TaskSpec> loadTaskSpec(const fs::path& folder) {
    const fs::path file = folder / "task.json";
    auto text = readTextFile(file);
    if (!text) {
        return makeError(ErrorCode::NotFound, "no task.json in this folder", file.string(), 0,
                         "a task folder holds task.json, the NKI kernel and the CUDA kernel; see docs/task-format.md");
    }
    json doc;
    try {
        doc = json::parse(*text);
    } catch (const json::parse_error& e) {
        return makeError(ErrorCode::Parse, fmt::format("task.json is not valid JSON: {}", e.what()), file.string());
    }
    try {
        if (!doc.is_object() || !doc.contains("kernel_file") || !doc.contains("kernel") || !doc.contains("args")) {
            return makeError(ErrorCode::Parse, "task.json needs 'kernel_file', 'kernel' and 'args'", file.string());
        }
        if (doc.value("format", 1) != 1) {
            return makeError(
                ErrorCode::Unsupported,
                fmt::format("task.json format {} is newer than this KernelLens reads (1)", doc.value("format", 1)),
                file.string());
        }
        TaskSpec spec;
        spec.folder = fs::absolute(folder);
        spec.title = doc.value("title", spec.folder.filename().string());
        spec.description = doc.value("description", "");
        spec.kernelFile = spec.folder / doc["kernel_file"].get<std::string>();
        spec.kernelName = doc["kernel"].get<std::string>();
        if (doc.contains("cuda_file") && !doc["cuda_file"].is_null()) {
            spec.cudaFile = spec.folder / doc["cuda_file"].get<std::string>();
        }
        spec.cudaKernel = doc.value("cuda_kernel", "");
        auto args = parseArgs(doc["args"], file.string());
        if (!args) {
            return std::unexpected(args.error());
        }
        spec.args = std::move(*args);
        if (doc.contains("grid")) {
            spec.grid = doc["grid"].get<std::vector<int>>();
        }
        spec.hardware = doc.value("hardware", "");
        if (doc.contains("extra_files")) {
            auto extra = parseExtraFiles(doc["extra_files"], spec.folder, file.string());
            if (!extra) {
                return std::unexpected(extra.error());
            }
            spec.extraFiles = std::move(*extra);
        }
        return spec;
    } catch (const json::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("task.json has a value of the wrong type: {}", e.what()),
                         file.string());
    }
}

} // namespace kl::core
