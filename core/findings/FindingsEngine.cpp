#include "findings/FindingsEngine.h"

#include "findings/RuleRegistry.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <algorithm>

namespace kl::core::findings {

Expected<FindingsEngine> FindingsEngine::create(RulesFile rules) {
    auto all = std::make_shared<std::vector<std::unique_ptr<Rule>>>(createRules());
    const std::string hint = "every rule needs an entry in the rules file (docs/findings.md)";
    for (const auto& rule : *all) {
        if (rules.find(rule->id()) == nullptr) {
            return makeError(ErrorCode::Parse, fmt::format("rules file: no settings for rule '{}'", rule->id()), {}, 0,
                             hint);
        }
    }
    for (const auto& rule : *all) {
        const RuleSettings* s = rules.find(rule->id());
        for (const std::string_view name : rule->thresholds()) {
            if (!s->thresholds.contains(name)) {
                return makeError(ErrorCode::Parse,
                                 fmt::format("rules file: rule '{}' has no threshold '{}'", rule->id(), name), {}, 0,
                                 hint);
            }
        }
    }
    for (const RuleSettings& s : rules.rules) {
        const bool known = std::any_of(all->begin(), all->end(), [&](const auto& r) { return r->id() == s.id; });
        if (!known) {
            return makeError(ErrorCode::Parse, fmt::format("rules file: '{}' is not a rule", s.id), {}, 0,
                             fmt::format("the rules are: {}", fmt::join(ruleIds(), ", ")));
        }
    }
    FindingsEngine engine;
    engine.m_file = std::make_shared<const RulesFile>(std::move(rules));
    engine.m_rules = std::move(all);
    return engine;
}

Expected<FindingsEngine> FindingsEngine::createDefault() {
    const auto path = defaultRulesFilePath();
    if (path.empty()) {
        return makeError(ErrorCode::NotFound, "cannot find KernelLens's resources folder for the rules file", {}, 0,
                         "set KL_DATA_DIR to the folder that holds resources/");
    }
    auto file = loadRulesFile(path);
    KL_TRY(file);
    auto engine = create(std::move(*file));
    if (!engine) {
        Error e = engine.error();
        e.file = path.string();
        return std::unexpected(e);
    }
    return engine;
}

std::vector<Finding> FindingsEngine::run(const sim::KernelIr& ir, const sim::SimResult& result,
                                         const sim::HardwareProfile& hardware, const MigrationSource* migration,
                                         const NumericsResult* numerics) const {
    const RunFacts facts(ir, result);
    const EvidenceBuilder evidence(ir, result);
    const FindingsInput input{ir, result, hardware, facts, evidence, migration, numerics};
    std::vector<Finding> out;
    for (const auto& rule : *m_rules) {
        const RuleSettings* s = m_file->find(rule->id());
        if (s != nullptr && s->enabled) {
            rule->check(input, *s, out);
        }
    }
    if (migration != nullptr) {
        addLinkedCudaLines(out, *migration);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
    return out;
}

} // namespace kl::core::findings
