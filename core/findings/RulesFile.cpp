#include "findings/RulesFile.h"

#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cassert>

namespace kl::core::findings {

namespace {

using Json = nlohmann::json;

constexpr int kFormat = 1;

std::unexpected<Error> bad(const std::string& origin, const std::string& what) {
    return makeError(ErrorCode::Parse, fmt::format("rules file: {}", what), origin, 0,
                     "see docs/findings.md for the format of the rules file");
}

Expected<std::string> text(const Json& j, const char* key, const std::string& where, const std::string& origin,
                           bool required) {
    const auto it = j.find(key);
    if (it == j.end()) {
        if (required) {
            return bad(origin, fmt::format("{} has no \"{}\"", where, key));
        }
        return std::string{};
    }
    if (!it->is_string() || (required && it->get_ref<const std::string&>().empty())) {
        return bad(origin, fmt::format("{}.{} must be a non-empty string", where, key));
    }
    return it->get<std::string>();
}

Expected<Threshold> parseThreshold(const Json& j, const std::string& where, const std::string& origin) {
    if (!j.is_object()) {
        return bad(origin, fmt::format("{} must be an object {{\"value\", \"unit\", \"reason\"}}", where));
    }
    const auto v = j.find("value");
    if (v == j.end() || !v->is_number()) {
        return bad(origin, fmt::format("{}.value must be a number", where));
    }
    Threshold t;
    t.value = v->get<double>();
    auto unit = text(j, "unit", where, origin, false);
    auto reason = text(j, "reason", where, origin, true);
    auto source = text(j, "source", where, origin, false);
    for (const auto* e : {&unit, &reason, &source}) {
        KL_TRY(*e);
    }
    t.unit = std::move(*unit);
    t.reason = std::move(*reason);
    t.source = std::move(*source);
    return t;
}

Expected<RuleSettings> parseRule(const std::string& id, const Json& j, const std::string& origin) {
    const std::string where = fmt::format("rules.{}", id);
    if (!j.is_object()) {
        return bad(origin, fmt::format("{} must be an object", where));
    }
    RuleSettings s;
    s.id = id;
    if (const auto e = j.find("enabled"); e != j.end()) {
        if (!e->is_boolean()) {
            return bad(origin, fmt::format("{}.enabled must be true or false", where));
        }
        s.enabled = e->get<bool>();
    }
    auto severity = text(j, "severity", where, origin, true);
    KL_TRY(severity);
    const auto parsed = parseSeverity(*severity);
    if (!parsed) {
        return bad(origin,
                   fmt::format("{}.severity '{}' is not one of blocking, major, minor, nit, praise", where, *severity));
    }
    s.severity = *parsed;
    auto item = text(j, "rubric_item", where, origin, true);
    KL_TRY(item);
    s.rubricItem = std::move(*item);
    if (const auto t = j.find("thresholds"); t != j.end()) {
        if (!t->is_object()) {
            return bad(origin, fmt::format("{}.thresholds must be an object", where));
        }
        for (const auto& [name, value] : t->items()) {
            auto threshold = parseThreshold(value, fmt::format("{}.thresholds.{}", where, name), origin);
            KL_TRY(threshold);
            s.thresholds.emplace(name, std::move(*threshold));
        }
    }
    return s;
}

} // namespace

double RuleSettings::value(std::string_view name) const {
    const auto it = thresholds.find(name);
    assert(it != thresholds.end() && "FindingsEngine checks every declared threshold exists");
    return it != thresholds.end() ? it->second.value : 0.0;
}

const RuleSettings* RulesFile::find(std::string_view id) const {
    for (const RuleSettings& r : rules) {
        if (r.id == id) {
            return &r;
        }
    }
    return nullptr;
}

Expected<RulesFile> parseRulesFile(std::string_view json, const std::string& origin) {
    const Json j = Json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        return bad(origin, "not a JSON object");
    }
    const auto format = j.find("format");
    if (format == j.end() || !format->is_number_integer() || format->get<int>() != kFormat) {
        return bad(origin, fmt::format("\"format\" must be {}", kFormat));
    }
    RulesFile file;
    auto rubric = text(j, "rubric", "the file", origin, true);
    KL_TRY(rubric);
    file.rubric = std::move(*rubric);
    const auto rules = j.find("rules");
    if (rules == j.end() || !rules->is_object()) {
        return bad(origin, "\"rules\" must be an object of rule id -> settings");
    }
    for (const auto& [id, value] : rules->items()) {
        auto rule = parseRule(id, value, origin);
        KL_TRY(rule);
        file.rules.push_back(std::move(*rule));
    }
    return file;
}

Expected<RulesFile> loadRulesFile(const std::filesystem::path& path) {
    auto content = readTextFile(path);
    KL_TRY(content);
    return parseRulesFile(*content, path.string());
}

std::filesystem::path defaultRulesFilePath() {
    const std::filesystem::path root = dataRoot();
    return root.empty() ? root : root / "resources" / "rules" / "findings.json";
}

} // namespace kl::core::findings
