#pragma once
// The "Reviewer agreement" part of a report on a team review, in each report format: the agreement figures
// per rubric item and overall, the disagreements with each reviewer's score, and the agreed grades with the
// adjudicator's reason.

#include "report/ReportModel.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace kl::core::report {

[[nodiscard]] std::string agreementMarkdown(const TeamSection& team);
[[nodiscard]] std::string agreementHtml(const TeamSection& team);
[[nodiscard]] nlohmann::json agreementReportJson(const TeamSection& team);

} // namespace kl::core::report
