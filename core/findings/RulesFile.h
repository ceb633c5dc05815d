#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kl::core::findings {

/// One threshold of a rule as the rules file gives it: the number, its unit, why it is that number and, where
/// one exists, the public document it comes from.
struct Threshold {
    double value = 0;
    std::string unit;
    std::string reason;
    std::string source; ///< empty when the number is a judgement, not a published figure
};

/// What the rules file says about one rule: whether it runs, the severity and rubric item its findings carry, and
/// its thresholds by name.
struct RuleSettings {
    std::string id;
    bool enabled = true;
    Severity severity = Severity::Minor;
    std::string rubricItem;
    std::map<std::string, Threshold, std::less<>> thresholds;

    /// The value of a threshold the rule declared (the engine checks declared names exist before any rule runs).
    [[nodiscard]] double value(std::string_view name) const;
};

/// resources/rules/findings.json (docs/findings.md): the rubric the rule items belong to and every rule's
/// settings. Reading it checks types and that each threshold has a value, a unit and a reason; whether the rules
/// named are the rules that exist is checked by FindingsEngine, which knows them.
struct RulesFile {
    std::string rubric; ///< id of the rubric whose items `rubric_item` names
    std::vector<RuleSettings> rules;

    [[nodiscard]] const RuleSettings* find(std::string_view id) const;
};

[[nodiscard]] Expected<RulesFile> parseRulesFile(std::string_view json, const std::string& origin);
[[nodiscard]] Expected<RulesFile> loadRulesFile(const std::filesystem::path& path);
/// resources/rules/findings.json under core::dataRoot() (empty path when no data root is found).
[[nodiscard]] std::filesystem::path defaultRulesFilePath();

} // namespace kl::core::findings
