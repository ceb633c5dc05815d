#pragma once

#include "findings/Evidence.h"
#include "findings/Finding.h"
#include "findings/MigrationSource.h"
#include "findings/RulesFile.h"
#include "findings/RunFacts.h"
#include "hw/HardwareProfile.h"
#include "numerics/NumericsResult.h"

#include <span>
#include <string_view>
#include <vector>

namespace kl::core::findings {

/// What every rule reads: the IR, the simulated run (and facts computed once from both), the hardware profile and,
/// for a migration task, the CUDA side. References only; the caller keeps them alive while the rules run.
struct FindingsInput {
    const sim::KernelIr& ir;
    const sim::SimResult& result;
    const sim::HardwareProfile& hardware;
    const RunFacts& facts;
    const EvidenceBuilder& evidence;
    const MigrationSource* migration = nullptr; ///< null: no CUDA source (the migration rules stay silent)
    const NumericsResult* numerics = nullptr;   ///< the task's latest numerics run, or null (semantics-differ)
};

/// One check over a run. A rule has a stable id (the interface: JSON, rules file, review annotations), a title, the
/// names of the thresholds it reads from the rules file, and a check that appends its findings (none, one or a few)
/// to `out`. Rules are stateless; FindingsEngine owns one of each (RuleRegistry) and runs them in order.
class Rule {
public:
    virtual ~Rule() = default;
    [[nodiscard]] virtual std::string_view id() const = 0;
    [[nodiscard]] virtual std::string_view title() const = 0;
    [[nodiscard]] virtual std::span<const std::string_view> thresholds() const = 0;
    virtual void check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const = 0;

protected:
    /// A finding of this rule with the id, title, severity and rubric item filled in.
    [[nodiscard]] Finding makeFinding(const RuleSettings& settings) const {
        Finding f;
        f.rule = std::string(id());
        f.title = std::string(title());
        f.severity = settings.severity;
        f.rubricItem = settings.rubricItem;
        return f;
    }
};

} // namespace kl::core::findings
