#pragma once

#include "common/Error.h"
#include "compare/RunComparison.h"
#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"
#include "whatif/WhatIfSettings.h"

#include <filesystem>
#include <memory>
#include <string>

namespace kl::core {

/// A hardware profile as loaded (for simulating) together with its JSON text (for writing a derived profile
/// that keeps every unchanged field's source).
struct BaseProfile {
    sim::HardwareProfile profile;
    std::string json;
    std::filesystem::path path;
};

/// Resolves a profile name (trn1, trn2) or path as core::simulate does, and reads it.
[[nodiscard]] Expected<BaseProfile> loadBaseProfile(const std::string& hardware);

/// Re-simulates an already traced kernel with `overrides` applied to `base`: no re-tracing, the IR of the base
/// run is reused. Blocking; the GUI calls it on a worker thread.
[[nodiscard]] Expected<std::shared_ptr<const sim::SimResult>>
simulateWhatIf(const sim::KernelIr& ir, const sim::HardwareProfile& base, const ProfileOverrides& overrides);

/// A new profile JSON in the format of resources/hw/*.json: `baseJson` with each overridden field's value
/// replaced and its `source` saying it is a what-if change of the base value (and where that came from).
/// `name` becomes the profile's name; the result loads with HardwareProfile::loadString.
[[nodiscard]] Expected<std::string> writeWhatIfProfile(const std::string& baseJson, const ProfileOverrides& overrides,
                                                       const std::string& name);

} // namespace kl::core
