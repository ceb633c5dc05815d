#pragma once

#include "common/Error.h"
#include "report/ReportModel.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kl::core::report {

/// The formats a report is written in. PDF is drawn by Qt (app/report/ReportQt.h, writePdf); the others are text
/// made here.
enum class ReportFormat { Html, Pdf, Markdown, Json, Csv };

/// "html"/"htm", "pdf", "md"/"markdown", "json", "csv" (a file extension without the dot, or a --format value).
[[nodiscard]] std::optional<ReportFormat> parseReportFormat(std::string_view name);
/// HTML and PDF carry the timeline image and want each task's run.
[[nodiscard]] bool isVisual(ReportFormat format);

/// The one report writer of the CLI and the GUI for the text formats: renders `report` as `format` and writes it
/// atomically (core::writeFileAtomically). PDF is Unsupported here: the caller draws it with Qt.
[[nodiscard]] Expected<void> writeReport(const Report& report, ReportFormat format, const std::filesystem::path& path);

} // namespace kl::core::report
