#include "hw/HardwareProfile.h"

#include "common/JsonRead.h"
#include "common/Try.h"
#include "hw/ProfileFields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace kl::sim {

namespace {

using Json = nlohmann::json;

/// Thrown while reading a profile with the message for people; never leaves this file.
struct FieldError {
    std::string message;
};

/// The value of a {"value", "unit", "source"} field (every numeric field: an unsourced number is exactly what the
/// profile exists to prevent). A source that starts with kAssumptionPrefix is recorded in `assumptions` and must
/// still say what the value is assumed from.
const Json& sourcedField(const Json& root, const char* group, const char* key, std::vector<std::string>& assumptions) {
    const std::string name = fmt::format("{}.{}", group, key);
    const auto g = root.find(group);
    if (g == root.end() || !g->is_object()) {
        throw FieldError{g == root.end() ? fmt::format("{}: missing (an object of fields)", group)
                                         : kl::json::mismatch(group, "an object of fields", *g)};
    }
    const auto field = g->find(key);
    if (field == g->end()) {
        throw FieldError{fmt::format("{}: missing", name)};
    }
    if (!field->is_object() || !field->contains("value")) {
        throw FieldError{kl::json::mismatch(name, "an object with \"value\", \"unit\" and \"source\"", *field)};
    }
    const auto source = field->find("source");
    const auto text = source == field->end() ? std::nullopt : kl::json::stringOf(*source, true);
    if (!text) {
        throw FieldError{
            fmt::format("{} has no \"source\" string: every profile number must name where it comes from", name)};
    }
    if (text->starts_with(kAssumptionPrefix)) {
        if (text->find_first_not_of(' ', kAssumptionPrefix.size()) == std::string::npos) {
            throw FieldError{
                fmt::format("{}: an \"{}\" source must say what the value is assumed from", name, kAssumptionPrefix)};
        }
        assumptions.push_back(name);
    }
    return (*field)["value"];
}

/// `[[bytes, efficiency], ...]`; the ranges are checked with the rest of the profile (checkProfile).
std::vector<DmaEfficiencyPoint> readEfficiency(const Json& value) {
    constexpr const char* kName = "dma.efficiency_by_bytes_per_partition";
    if (!value.is_array() || value.size() > kMaxEfficiencyPoints) {
        throw FieldError{kl::json::mismatch(
            kName, fmt::format("an array of at most {} [bytes, efficiency] pairs", kMaxEfficiencyPoints), value)};
    }
    std::vector<DmaEfficiencyPoint> points;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const Json& point = value[i];
        const auto bytes =
            point.is_array() && point.size() == 2 ? kl::json::numberIn(point[0], 1, kMaxEfficiencyBytes) : std::nullopt;
        const auto efficiency = bytes ? kl::json::numberIn(point[1], kMinDmaEfficiency, 1) : std::nullopt;
        if (!efficiency) {
            throw FieldError{kl::json::mismatch(
                fmt::format("{}[{}]", kName, i),
                fmt::format("[bytes from 1 to 2^40, efficiency from {:g} to 1]", kMinDmaEfficiency), point)};
        }
        points.push_back({*bytes, *efficiency});
    }
    return points;
}

HardwareProfile parseProfile(const Json& root) {
    HardwareProfile p;
    const auto name = root.find("name");
    if (name == root.end() || !kl::json::stringOf(*name, true)) {
        throw FieldError{name == root.end() ? "name: missing (a non-empty string)"
                                            : kl::json::mismatch("name", "a non-empty string", *name)};
    }
    p.name = name->get<std::string>();
    if (const auto d = root.find("description"); d != root.end()) {
        const auto text = kl::json::stringOf(*d);
        if (!text) {
            throw FieldError{kl::json::mismatch("description", "a string", *d)};
        }
        p.description = *text;
    }
    for (const ProfileField& f : profileFields()) {
        const Json& value = sourcedField(root, f.group, f.key, p.assumptions);
        const auto v = kl::json::numberIn(value, f.minimum, f.maximum);
        if (!v || (f.integral && *v != std::floor(*v))) {
            throw FieldError{
                kl::json::mismatch(f.name(),
                                   fmt::format("{} from {:g} to {:g} {}", f.integral ? "a whole number" : "a number",
                                               f.minimum, f.maximum, f.unit),
                                   value)};
        }
        f.field(p) = *v;
    }
    p.dma.efficiency = readEfficiency(sourcedField(root, "dma", "efficiency_by_bytes_per_partition", p.assumptions));
    // Optional (a profile without it has no logical cores, as trn1); sourced like every other number.
    if (const auto g = root.find("cores"); g != root.end() && g->is_object() && g->contains("max_lnc")) {
        const Json& value = sourcedField(root, "cores", "max_lnc", p.assumptions);
        const auto v = kl::json::numberIn(value, 1, 2);
        if (!v || *v != std::floor(*v)) {
            throw FieldError{kl::json::mismatch("cores.max_lnc", "1 or 2 physical cores per logical core", value)};
        }
        p.maxLnc = static_cast<int>(*v);
    }
    if (p.dma.efficiency.empty()) {
        p.dma.efficiency.push_back({1, 1});
    }
    return p;
}

} // namespace

double HardwareProfile::dmaEfficiency(double bytesPerPartition) const {
    const auto& t = dma.efficiency;
    if (t.empty())
        return 1.0;
    if (bytesPerPartition <= t.front().bytesPerPartition)
        return t.front().efficiency;
    if (bytesPerPartition >= t.back().bytesPerPartition)
        return t.back().efficiency;
    for (std::size_t i = 1; i < t.size(); ++i) {
        if (bytesPerPartition <= t[i].bytesPerPartition) {
            const double x0 = std::log2(t[i - 1].bytesPerPartition);
            const double x1 = std::log2(t[i].bytesPerPartition);
            const double f = (std::log2(bytesPerPartition) - x0) / (x1 - x0);
            return t[i - 1].efficiency + f * (t[i].efficiency - t[i - 1].efficiency);
        }
    }
    return t.back().efficiency;
}

Expected<HardwareProfile> HardwareProfile::loadString(std::string_view json, std::string_view origin) {
    constexpr const char* kHint = "compare with resources/hw/trn1.json; docs/simulator.md lists the accepted ranges";
    Json root;
    try {
        root = Json::parse(json.begin(), json.end());
    } catch (const Json::exception& e) { // parse_error, or out_of_range for a number such as 1e999
        return makeError(ErrorCode::Parse, fmt::format("hardware profile is not valid JSON: {}", e.what()),
                         std::string(origin), 0, kHint);
    }
    if (!root.is_object()) {
        return makeError(ErrorCode::Parse, kl::json::mismatch("hardware profile", "a JSON object", root),
                         std::string(origin), 0, kHint);
    }
    const auto version = root.find("profile_version");
    if (version == root.end() || kl::json::integerIn(*version, 1, 1) != 1) {
        return makeError(ErrorCode::Unsupported,
                         version == root.end()
                             ? std::string("profile_version: missing (this build reads version 1)")
                             : kl::json::mismatch("profile_version", "1 (the version this build reads)", *version),
                         std::string(origin), 0, kHint);
    }
    try {
        HardwareProfile profile = parseProfile(root);
        KL_TRY(checkProfile(profile, origin));
        return profile;
    } catch (const FieldError& e) {
        return makeError(ErrorCode::Parse, fmt::format("bad hardware profile: {}", e.message), std::string(origin), 0,
                         kHint);
    }
}

Expected<HardwareProfile> HardwareProfile::loadFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot open hardware profile", path.string());
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return loadString(buffer.str(), path.string());
}

} // namespace kl::sim
