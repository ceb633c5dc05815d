#pragma once
// `kernellens-cli review merge | agreement | adjudicate`: several reviewers on one task set.

#include "cli/CliSupport.h"

namespace kl::core {
class ReviewFile;
}

namespace kl::app::review {

/// review merge A.klreview B.klreview ... -o TEAM.klreview
int runMerge(const CommandLine& opts);
/// review agreement TEAM.klreview [--json OUT]
int runAgreement(core::ReviewFile& file, const CommandLine& opts);
/// review adjudicate TEAM.klreview --task ID --item ID --value N --reason TEXT [--adjudicator NAME]
int runAdjudicate(core::ReviewFile& file, const CommandLine& opts);

} // namespace kl::app::review
