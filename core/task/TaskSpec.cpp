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

Expected<TaskSpec> loadTaskSpec(const fs::path& folder) {
    const fs::path file = folder / "task.json";
    auto text = readTextFile(file);
    if (!text) {
        return makeError(ErrorCode::NotFound, "no task.json in this folder", file.string(),
                         0, "a task folder holds task.json, the NKI kernel and the CUDA kernel; see docs/task-format.md");
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
            return makeError(ErrorCode::Unsupported,
                             fmt::format("task.json format {} is newer than this KernelLens reads (1)",
                                         doc.value("format", 1)),
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
        return spec;
    } catch (const json::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("task.json has a value of the wrong type: {}", e.what()),
                         file.string());
    }
}

} // namespace kl::core
