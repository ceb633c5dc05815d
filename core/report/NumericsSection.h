#pragma once
// The "Numerics" part of a task in a report, in each report format: every numerics run stored in the review
// for the task (inputs, reference, CUDA policy, tolerance), a row per comparison with its error figures and
// verdict, and the instructions that added most rounding error. Sample (Markdown):
//
//     ### Numerics (1 run)
//     Run 1 (2026-12-01T22:00:00.000Z): kernel nki_matmul, inputs normal, seed 0, reference reference.py:ref, ...
//     | Output | Comparison | Max abs | Max rel | Max ULP | RMS | Mismatches | Tolerance | Result |

#include "report/ReportModel.h"
#include "review/NumericsRunRepository.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace kl::core::report {

/// The report's view of stored runs: each document read again (a run whose document no longer reads keeps its
/// summary columns and says why in `problem`).
[[nodiscard]] std::vector<ReportNumericsRun> reportNumericsRuns(const std::vector<NumericsRun>& runs);

[[nodiscard]] std::string numericsMarkdown(const ReportTask& task);
[[nodiscard]] std::string numericsHtml(const ReportTask& task);
/// The task's "numerics" array of the JSON report (docs/report-schema.json).
[[nodiscard]] nlohmann::json numericsReportJson(const ReportTask& task);

} // namespace kl::core::report
