#include "trace/KernelListing.h"

#include "support/Subprocess.h"
#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kl::core {

using nlohmann::json;

std::vector<std::string> KernelInfo::requiredParameters() const {
    std::vector<std::string> names;
    for (const KernelParameter& p : params) {
        if (!p.hasDefault) {
            names.push_back(p.name);
        }
    }
    return names;
}

namespace {

Expected<KernelParameter> parseParameter(const json& item, const std::string& where) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
        return makeError(ErrorCode::Parse, fmt::format("{}: each parameter needs a \"name\" string", where));
    }
    KernelParameter p;
    p.name = item["name"].get<std::string>();
    p.hasDefault = item.contains("has_default") && item["has_default"].is_boolean() && item["has_default"].get<bool>();
    if (item.contains("default") && item["default"].is_string()) {
        p.defaultText = item["default"].get<std::string>();
    }
    return p;
}

Expected<KernelInfo> parseKernel(const json& item, const std::string& where) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
        return makeError(ErrorCode::Parse, fmt::format("{}: each kernel needs a \"name\" string", where));
    }
    KernelInfo kernel;
    kernel.name = item["name"].get<std::string>();
    kernel.file = item.contains("file") && item["file"].is_string() ? item["file"].get<std::string>() : "";
    kernel.line = item.contains("line") && item["line"].is_number_integer() ? item["line"].get<int>() : 0;
    const json params = item.contains("params") ? item["params"] : json::array();
    if (!params.is_array()) {
        return makeError(ErrorCode::Parse, fmt::format("{}: \"params\" of {} must be a list", where, kernel.name));
    }
    for (const json& p : params) {
        auto parameter = parseParameter(p, where);
        KL_TRY(parameter);
        kernel.params.push_back(std::move(*parameter));
    }
    return kernel;
}

} // namespace

Expected<std::vector<KernelInfo>> parseKernelList(const std::string& text, const std::string& origin) {
    const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object() || !doc.contains("kernels") || !doc["kernels"].is_array()) {
        return makeError(ErrorCode::Parse,
                         fmt::format("{}: not a kernel list (expected {{\"kernels\": [...]}})", origin), "", 0,
                         "this is a KernelLens bug; please report it with the kernel file");
    }
    std::vector<KernelInfo> kernels;
    for (const json& item : doc["kernels"]) {
        auto kernel = parseKernel(item, origin);
        KL_TRY(kernel);
        kernels.push_back(std::move(*kernel));
    }
    return kernels;
}

Expected<std::vector<KernelInfo>> listKernels(const TraceRequest& request, const std::function<bool()>& shouldCancel) {
    TemporaryDirectory scratch;
    if (!scratch.valid()) {
        return makeError(ErrorCode::Io, "cannot create a temporary folder for the kernel list");
    }
    TraceRequest listing = request;
    listing.listKernels = true;
    listing.output = scratch.path() / "kernels.json";
    auto outcome = runTrace(listing, shouldCancel);
    KL_TRY(outcome);
    auto text = readTextFile(outcome->irFile);
    if (!text) {
        return makeError(ErrorCode::Internal, "the NKI front end wrote no kernel list", request.kernelFile.string(), 0,
                         "this is a KernelLens bug; please report it with the kernel file");
    }
    return parseKernelList(*text, "the front end's kernel list for " + request.kernelFile.string());
}

} // namespace kl::core
