#pragma once

#include "report/ReportModel.h"

#include <string>

// Wording shared by every report format, so Markdown, HTML, PDF and JSON say the same thing.
// Returned text is NOT escaped: each writer escapes it for its format.
namespace kl::core::report {

/// "850 ns", "12.345 us", "48.580 ms" from picoseconds.
[[nodiscard]] std::string formatTime(sim::TimePs ps);
/// The anchor for people: "time 1.200 us - 3.400 us", "instruction 42 (nc_matmul on pe.mm, ...)",
/// "NKI lines 14-18", "CUDA line 7".
[[nodiscard]] std::string describeAnchor(const ReportAnnotation& a);
/// "4 / 5 (adequate)" or "unscored".
[[nodiscard]] std::string describeItemScore(const ItemScore& item);
/// "3.40" or "-" for an optional 1-5 score.
[[nodiscard]] std::string formatScore(const std::optional<double>& score);
/// The title of a rubric item, or its id when the rubric does not know it.
[[nodiscard]] std::string itemTitle(const ReportTask& task, const std::string& itemId);
/// True when the annotation has a place on the timeline (a time range or a resolved instruction).
[[nodiscard]] bool hasTimelineMarker(const ReportAnnotation& a);
/// Its time interval on the timeline (only when hasTimelineMarker).
[[nodiscard]] std::pair<sim::TimePs, sim::TimePs> markerInterval(const ReportAnnotation& a);

} // namespace kl::core::report
