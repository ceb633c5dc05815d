#pragma once

#include "common/Error.h"
#include "findings/Finding.h"
#include "findings/MigrationSource.h"
#include "findings/Rule.h"
#include "findings/RulesFile.h"
#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <memory>
#include <vector>

namespace kl::core::findings {

/// Runs every rule the registry knows over one simulated kernel, with the settings of the rules file.
///
/// create() checks the rules file against the rules: each rule has an entry, each entry names a rule, and each
/// threshold a rule reads is given (a typo in the file is an error, not a silently missing rule). run() computes
/// the shared RunFacts once, runs the enabled rules in registry order and returns the findings most severe first
/// (registry order within a severity). Immutable after create(); run() may be called from any thread.
class FindingsEngine {
public:
    [[nodiscard]] static Expected<FindingsEngine> create(RulesFile rules);
    /// The bundled rules file (defaultRulesFilePath()).
    [[nodiscard]] static Expected<FindingsEngine> createDefault();

    [[nodiscard]] std::vector<Finding> run(const sim::KernelIr& ir, const sim::SimResult& result,
                                           const sim::HardwareProfile& hardware,
                                           const MigrationSource* migration = nullptr,
                                           const NumericsResult* numerics = nullptr) const;

    [[nodiscard]] const RulesFile& rulesFile() const { return *m_file; }
    [[nodiscard]] const std::vector<std::unique_ptr<Rule>>& rules() const { return *m_rules; }

private:
    FindingsEngine() = default;
    std::shared_ptr<const RulesFile> m_file;
    std::shared_ptr<const std::vector<std::unique_ptr<Rule>>> m_rules;
};

} // namespace kl::core::findings
