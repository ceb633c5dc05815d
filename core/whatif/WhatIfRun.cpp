#include "whatif/WhatIfRun.h"

#include "engine/Simulator.h"
#include "hw/ProfileLocator.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace kl::core {

Expected<BaseProfile> loadBaseProfile(const std::string& hardware) {
    auto path = sim::ProfileLocator::resolve(hardware, {dataRoot()});
    KL_TRY(path);
    auto text = readTextFile(*path);
    KL_TRY(text);
    auto profile = sim::HardwareProfile::loadString(*text, path->string());
    KL_TRY(profile);
    return BaseProfile{std::move(*profile), std::move(*text), *path};
}

Expected<std::shared_ptr<const sim::SimResult>>
simulateWhatIf(const sim::KernelIr& ir, const sim::HardwareProfile& base, const ProfileOverrides& overrides) {
    auto profile = applyOverrides(base, overrides);
    KL_TRY(profile);
    return sim::Simulator::run(ir, *profile);
}

Expected<std::string> writeWhatIfProfile(const std::string& baseJson, const ProfileOverrides& overrides,
                                         const std::string& name) {
    using Json = nlohmann::ordered_json;
    Json root;
    try {
        root = Json::parse(baseJson);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("base profile is not JSON: {}", e.what()));
    }
    const std::string baseName = root.value("name", std::string("profile"));
    for (const auto& [key, value] : overrides) {
        const WhatIfField* f = findWhatIfField(key);
        const auto dot = key.find('.');
        if (!f || dot == std::string::npos) {
            return makeError(ErrorCode::InvalidArgument, fmt::format("unknown what-if field \"{}\"", key));
        }
        const std::string group = key.substr(0, dot);
        const std::string field = key.substr(dot + 1);
        if (!root.contains(group) || !root[group].contains(field)) {
            return makeError(ErrorCode::Parse, fmt::format("base profile has no {}", key));
        }
        Json& entry = root[group][field];
        const std::string oldSource = entry.value("source", std::string{});
        const double oldValue = entry.at("value").get<double>();
        const double newValue = f->integral ? std::round(value) : value;
        if (f->integral) {
            entry["value"] = static_cast<long long>(newValue);
        } else {
            entry["value"] = newValue;
        }
        entry["source"] = fmt::format("what-if change in KernelLens: {:g} {} instead of the {} value {:g} (base "
                                      "source: {})",
                                      newValue, f->unit, baseName, oldValue, oldSource);
    }
    root["name"] = name;
    const std::string description = root.value("description", std::string{});
    root["description"] = fmt::format("What-if variant of {}: {}", baseName, description);
    std::string text = root.dump(2) + "\n";
    auto check = sim::HardwareProfile::loadString(text, name);
    KL_TRY(check);
    return text;
}

} // namespace kl::core
