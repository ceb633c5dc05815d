#include "hw/HardwareChoice.h"

#include <fmt/format.h>

namespace kl::sim {

std::string bundledProfileList(std::string_view separator) {
    std::string out;
    for (std::string_view name : kBundledProfiles) {
        if (!out.empty()) {
            out += separator;
        }
        out += name;
    }
    return out;
}

KernelApi kernelApiOf(std::string_view api) {
    if (api == "nki") {
        return KernelApi::Nki;
    }
    if (api == "legacy") {
        return KernelApi::Legacy;
    }
    return KernelApi::Unknown;
}

std::string_view hardwareReasonText(HardwareReason reason) {
    switch (reason) {
    case HardwareReason::Requested: return "--hw";
    case HardwareReason::Task: return "task.json";
    case HardwareReason::NkiDefault: return "default for nki.* kernels";
    case HardwareReason::LegacyDefault: return "default for legacy neuronxcc.nki kernels";
    case HardwareReason::UnknownApi: return "default: the IR does not say which NKI API the kernel uses";
    }
    return "?";
}

std::string HardwareChoice::describe() const {
    return fmt::format("{} ({})", spec, hardwareReasonText(reason));
}

std::string_view defaultProfileFor(KernelApi api) {
    return api == KernelApi::Nki ? "trn2" : "trn1";
}

HardwareChoice chooseHardware(std::string_view requested, std::string_view task, KernelApi api) {
    if (!requested.empty()) {
        return {std::string(requested), HardwareReason::Requested};
    }
    if (!task.empty()) {
        return {std::string(task), HardwareReason::Task};
    }
    const HardwareReason reason = api == KernelApi::Nki      ? HardwareReason::NkiDefault
                                  : api == KernelApi::Legacy ? HardwareReason::LegacyDefault
                                                             : HardwareReason::UnknownApi;
    return {std::string(defaultProfileFor(api)), reason};
}

} // namespace kl::sim
