#include "task/TaskSpec.h"

#include "common/JsonRead.h"
#include "support/Try.h"

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

/// Ranges of task.json numbers (docs/task-format.md, "Limits").
constexpr std::size_t kMaxArgs = 256;
constexpr std::size_t kMaxDims = 8;
constexpr long long kMaxElements = 1LL << 40; ///< of one argument (the Kernel IR's limit on a buffer)
constexpr std::size_t kMaxGridDims = 3;
constexpr long long kMaxGridSize = 1 << 16; ///< program instances in all
constexpr std::size_t kMaxExtraFiles = 1024;

/// Thrown while reading task.json with the field's message; never leaves this file.
struct FieldError {
    std::string message;
};

std::string optionalString(const json& doc, const char* key) {
    const auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) {
        return {};
    }
    if (!it->is_string()) {
        throw FieldError{kl::json::mismatch(key, "a string", *it)};
    }
    return it->get<std::string>();
}

std::string requiredString(const json& doc, const char* key, std::string_view what) {
    const auto it = doc.find(key);
    if (it == doc.end()) {
        throw FieldError{fmt::format("{}: missing ({})", key, what)};
    }
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
        throw FieldError{kl::json::mismatch(key, what, *it)};
    }
    return it->get<std::string>();
}

/// Sizes of an argument's shape: whole numbers, their product at most kMaxElements.
std::vector<long long> parseShape(const json& shape, const std::string& path) {
    if (!shape.is_array() || shape.size() > kMaxDims) {
        throw FieldError{kl::json::mismatch(path, fmt::format("an array of at most {} sizes", kMaxDims), shape)};
    }
    std::vector<long long> out;
    long long elements = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const auto v = kl::json::integerIn(shape[i], 0, kMaxElements);
        if (!v) {
            throw FieldError{
                kl::json::mismatch(fmt::format("{}[{}]", path, i), kl::json::integerRange(0, kMaxElements), shape[i])};
        }
        if (*v > 0 && elements > kMaxElements / *v) {
            throw FieldError{fmt::format("{}: more than 2^40 elements", path)};
        }
        elements *= *v;
        out.push_back(*v);
    }
    return out;
}

std::vector<TaskArgument> parseArgs(const json& list) {
    if (!list.is_array() || list.size() > kMaxArgs) {
        throw FieldError{
            kl::json::mismatch("args", fmt::format("a list of at most {} {{name, shape, dtype}}", kMaxArgs), list)};
    }
    std::vector<TaskArgument> args;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& item = list[i];
        const std::string path = fmt::format("args[{}]", i);
        if (!item.is_object() || !item.contains("name") || !item.contains("shape") || !item.contains("dtype")) {
            throw FieldError{kl::json::mismatch(path, "an object with \"name\", \"shape\" and \"dtype\"", item)};
        }
        TaskArgument arg;
        arg.name = requiredString(item, "name", "a parameter name");
        arg.shape = parseShape(item["shape"], path + ".shape");
        arg.dtype = requiredString(item, "dtype", "a dtype name such as \"float32\"");
        args.push_back(std::move(arg));
    }
    return args;
}

std::vector<int> parseGrid(const json& grid) {
    if (!grid.is_array() || grid.empty() || grid.size() > kMaxGridDims) {
        throw FieldError{kl::json::mismatch(
            "grid", fmt::format("an array of 1 to {} sizes, e.g. [4] or [2, 2]", kMaxGridDims), grid)};
    }
    std::vector<int> out;
    long long instances = 1;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const auto v = kl::json::integerIn(grid[i], 1, kMaxGridSize);
        if (!v) {
            throw FieldError{
                kl::json::mismatch(fmt::format("grid[{}]", i), kl::json::integerRange(1, kMaxGridSize), grid[i])};
        }
        instances *= *v;
        if (instances > kMaxGridSize) {
            throw FieldError{fmt::format("grid: more than {} program instances in all", kMaxGridSize)};
        }
        out.push_back(static_cast<int>(*v));
    }
    return out;
}

std::vector<std::string> parseStringList(const json& list, const char* key, std::size_t maxSize) {
    if (!list.is_array() || list.size() > maxSize) {
        throw FieldError{kl::json::mismatch(key, fmt::format("a list of at most {} file paths", maxSize), list)};
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string()) {
            throw FieldError{kl::json::mismatch(fmt::format("{}[{}]", key, i), "a file path", list[i])};
        }
        out.push_back(list[i].get<std::string>());
    }
    return out;
}

TaskJson parseFields(const json& doc) {
    TaskJson t;
    t.title = optionalString(doc, "title");
    t.description = optionalString(doc, "description");
    t.kernelFile = optionalString(doc, "kernel_file");
    t.kernel = optionalString(doc, "kernel");
    t.cudaFile = optionalString(doc, "cuda_file");
    t.cudaKernel = optionalString(doc, "cuda_kernel");
    t.hardware = optionalString(doc, "hardware");
    t.packageRoot = optionalString(doc, "package_root");
    if (const auto it = doc.find("args"); it != doc.end()) {
        t.args = parseArgs(*it);
        t.hasArgs = true;
    }
    if (const auto it = doc.find("grid"); it != doc.end() && !it->is_null()) {
        t.grid = parseGrid(*it);
    }
    if (const auto it = doc.find("lnc"); it != doc.end() && !it->is_null()) {
        const auto v = kl::json::integerIn(*it, 1, 2);
        if (!v) {
            throw FieldError{kl::json::mismatch("lnc", "1 or 2 (physical NeuronCores per logical core)", *it)};
        }
        t.lnc = static_cast<int>(*v);
    }
    if (const auto it = doc.find("extra_files"); it != doc.end() && !it->is_null()) {
        t.extraFiles = parseStringList(*it, "extra_files", kMaxExtraFiles);
    }
    if (const auto it = doc.find("scalars"); it != doc.end() && !it->is_null() && !it->is_object()) {
        throw FieldError{kl::json::mismatch("scalars", "an object of parameter name -> value", *it)};
    }
    return t;
}

} // namespace

Expected<TaskJson> parseTaskJson(std::string_view text, const std::string& file) {
    constexpr const char* kHint = "see docs/task-format.md";
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) { // a syntax or UTF-8 error, or a number such as 1e999
        return makeError(ErrorCode::Parse, fmt::format("task.json is not valid JSON: {}", e.what()), file, 0,
                         "task.json must be UTF-8 JSON; see docs/task-format.md");
    }
    if (!doc.is_object()) {
        return makeError(ErrorCode::Parse, kl::json::mismatch("task.json", "a JSON object", doc), file, 0, kHint);
    }
    const auto format = doc.find("format");
    if (format != doc.end() && kl::json::integerIn(*format, 1, 1) != 1) {
        const auto newer = kl::json::integerIn(*format, 2, INT32_MAX);
        return makeError(newer ? ErrorCode::Unsupported : ErrorCode::Parse,
                         newer ? fmt::format("task.json format {} is newer than this KernelLens reads (1)", *newer)
                               : "task.json: " + kl::json::mismatch("format", "1", *format),
                         file, 0, kHint);
    }
    try {
        return parseFields(doc);
    } catch (const FieldError& e) {
        return makeError(ErrorCode::Parse, "task.json: " + e.message, file, 0, kHint);
    }
}

std::string TaskSpec::hardwareSpec() const {
    const bool isFile = hardware.ends_with(".json") || hardware.find('/') != std::string::npos;
    return isFile ? (folder / hardware).string() : hardware;
}

namespace {

/// `extra_files`: relative paths of existing files inside the task folder.
Expected<std::vector<fs::path>> resolveExtraFiles(const std::vector<std::string>& list, const fs::path& folder,
                                                  const std::string& file) {
    std::vector<fs::path> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const fs::path rel = list[i];
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
    auto parsed = parseTaskJson(*text, file.string());
    KL_TRY(parsed);
    if (parsed->kernelFile.empty() || parsed->kernel.empty() || !parsed->hasArgs) {
        return makeError(ErrorCode::Parse, "task.json needs 'kernel_file', 'kernel' and 'args'", file.string(), 0,
                         "see docs/task-format.md");
    }
    TaskSpec spec;
    std::error_code ec;
    spec.folder = fs::absolute(folder, ec);
    spec.title = parsed->title.empty() ? spec.folder.filename().string() : parsed->title;
    spec.description = std::move(parsed->description);
    spec.kernelFile = spec.folder / parsed->kernelFile;
    spec.kernelName = std::move(parsed->kernel);
    if (!parsed->cudaFile.empty()) {
        spec.cudaFile = spec.folder / parsed->cudaFile;
    }
    spec.cudaKernel = std::move(parsed->cudaKernel);
    spec.args = std::move(parsed->args);
    spec.grid = std::move(parsed->grid);
    spec.lnc = parsed->lnc;
    spec.hardware = std::move(parsed->hardware);
    auto extra = resolveExtraFiles(parsed->extraFiles, spec.folder, file.string());
    KL_TRY(extra);
    spec.extraFiles = std::move(*extra);
    return spec;
}

} // namespace kl::core
