#pragma once
// `kernellens-cli review merge | agreement | adjudicate`: several reviewers on one task set.

#include "cli/ReviewOptions.h"

namespace kl::core {
class ReviewFile;
}

namespace kl::app::review {

/// review merge A.klreview B.klreview ... -o TEAM.klreview
int runMerge(const Options& opts);
/// review agreement TEAM.klreview [--json OUT]
int runAgreement(core::ReviewFile& file, const Options& opts);
/// review adjudicate TEAM.klreview --task ID --item ID --value N --reason TEXT [--adjudicator NAME]
int runAdjudicate(core::ReviewFile& file, const Options& opts);

} // namespace kl::app::review
