#pragma once

#include "compare/RunComparison.h"
#include "result/SimResult.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kl::core {

/// Live numbers a lesson's text may quote, by placeholder name: "a.total_us", "b.active_pct.tensor",
/// "delta_pct.total_us", "speedup". A = the step's run, B = its comparison or what-if run.
using LessonNumbers = std::map<std::string, double, std::less<>>;

/// Numbers of one run (A only) or of a comparison (A, B, delta, delta_pct, speedup).
[[nodiscard]] LessonNumbers lessonNumbers(const sim::SimResult& a);
[[nodiscard]] LessonNumbers lessonNumbers(const RunComparison& comparison);

/// The first placeholder in `text` that no run can ever fill (a typo), if any.
[[nodiscard]] std::optional<std::string> unknownPlaceholder(std::string_view text);

/// Lesson text to HTML: everything escaped first, then `{placeholder}` replaced by its live number
/// (formatted by unit; "…" while the runs are still on their way), then the markdown-ish subset:
/// blank line = paragraph, "- " = list item, **bold**, *italic*, `code`.
[[nodiscard]] std::string renderLessonHtml(std::string_view text, const LessonNumbers& numbers);

/// One number as lessons show it: "51.80 ms", "523.4 us", "47.2%", "3.40x", "1,024".
[[nodiscard]] std::string formatLessonNumber(std::string_view key, double value);

} // namespace kl::core
