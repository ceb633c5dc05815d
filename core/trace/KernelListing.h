#pragma once

#include "common/Error.h"
#include "trace/TraceRunner.h"

#include <functional>
#include <string>
#include <vector>

namespace kl::core {

struct KernelParameter {
    std::string name;
    bool hasDefault = false;
    std::string defaultText; ///< the default's repr, empty without one
};

/// One kernel the front end found in a file (`--list-kernels`).
struct KernelInfo {
    std::string name;
    std::string file; ///< as the front end shows it (relative to the kernel's folder or package root)
    int line = 0;
    std::vector<KernelParameter> params;

    /// The parameters without a default, in order: what a caller must give before the kernel can run.
    [[nodiscard]] std::vector<std::string> requiredParameters() const;
};

/// Parses the front end's kernel list: `{"kernels": [{"name", "file", "line", "params": [{"name",
/// "has_default", "default"}]}]}`. `origin` names the list in errors.
[[nodiscard]] Expected<std::vector<KernelInfo>> parseKernelList(const std::string& text, const std::string& origin);

/// Asks the front end which kernels `request.kernelFile` defines, through runTrace (same sandbox, same
/// limits); `request.output` and `request.listKernels` are set here.
[[nodiscard]] Expected<std::vector<KernelInfo>> listKernels(const TraceRequest& request,
                                                            const std::function<bool()>& shouldCancel = {});

} // namespace kl::core
