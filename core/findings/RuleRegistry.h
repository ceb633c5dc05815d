#pragma once

#include "findings/Rule.h"

#include <memory>
#include <string_view>
#include <vector>

namespace kl::core::findings {

/// One of every rule, in the order of findings/Rules.def (the one list of rules).
[[nodiscard]] std::vector<std::unique_ptr<Rule>> createRules();
/// The ids of every rule, in the same order.
[[nodiscard]] std::vector<std::string_view> ruleIds();

} // namespace kl::core::findings
