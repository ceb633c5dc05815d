#pragma once

#include <array>
#include <string>
#include <string_view>

namespace kl::sim {

/// The hardware profiles bundled in resources/hw, oldest first. Every chooser, usage text and error
/// message takes the names from here; a test checks the list against the files in resources/hw.
inline constexpr std::array<std::string_view, 3> kBundledProfiles = {"trn1", "trn2", "trn3"};

/// "trn1, trn2, trn3": the bundled names for usage texts and messages.
[[nodiscard]] std::string bundledProfileList(std::string_view separator = ", ");

/// The NKI API a kernel is written against, from `KernelIr::api` (docs/kernel-ir.md).
enum class KernelApi {
    Nki,     ///< the standalone `nki.*` package (NKI 0.2 and later, Neuron 2.27+)
    Legacy,  ///< `neuronxcc.nki`
    Unknown, ///< an IR that does not say (written before `kernel.api` existed, or by hand)
};

[[nodiscard]] KernelApi kernelApiOf(std::string_view api);

/// Why a run uses the profile it uses, strongest first.
enum class HardwareReason {
    Requested,     ///< `--hw` on the command line, or a profile picked in the GUI
    Task,          ///< the task folder's task.json `hardware`
    NkiDefault,    ///< nothing asked: current NKI targets Trainium2/3, so trn2
    LegacyDefault, ///< nothing asked: legacy kernels were written and published for trn1
    UnknownApi,    ///< nothing asked and the IR does not name its API: trn1, as before the default followed the API
};

/// "--hw", "task.json", "default for nki.* kernels", ...
[[nodiscard]] std::string_view hardwareReasonText(HardwareReason reason);

/// The profile a run uses and why. `spec` is a profile name or a path to a profile JSON.
struct HardwareChoice {
    std::string spec;
    HardwareReason reason = HardwareReason::Requested;

    /// "trn2 (default for nki.* kernels)", "trn1 (--hw)", "../my.json (task.json)".
    [[nodiscard]] std::string describe() const;
};

/// The profile used when neither `--hw` nor the task names one.
[[nodiscard]] std::string_view defaultProfileFor(KernelApi api);

/// The one rule (docs/simulator.md, "Which profile a run uses"): `requested` wins, then `task` (the task's
/// `hardware`, already resolved against its folder), then the default for the kernel's API. An empty string
/// means "not given".
[[nodiscard]] HardwareChoice chooseHardware(std::string_view requested, std::string_view task, KernelApi api);

} // namespace kl::sim
