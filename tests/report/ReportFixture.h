#pragma once

#include "report/ReportModel.h"
#include "review/ReviewFile.h"

#include <filesystem>
#include <string>

namespace kl::core::report::test {

/// A review with one task (stored sources, a stored run, scores) and one annotation of each anchor kind,
/// with replies; the same every time.
void fillSampleReview(ReviewFile& file);

/// The report of that review with a synthetic run injected and every time stamp fixed, so writers
/// give the same bytes on every machine.
[[nodiscard]] Report sampleReport(ReviewFile& file);

/// A report built by hand whose every text field is hostile: markup, script, Markdown links, CSV
/// formulas, backtick runs and invalid UTF-8.
[[nodiscard]] Report hostileReport();

/// Compares `actual` with tests/golden/report/NAME.expected: writes NAME.actual beside it and prints
/// a unified diff on mismatch; KL_UPDATE_GOLDEN=1 rewrites the expected file instead.
void expectGolden(const std::string& name, const std::string& actual);

[[nodiscard]] bool isValidUtf8(const std::string& s);

} // namespace kl::core::report::test
