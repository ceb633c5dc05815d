#include "report/ReportWriter.h"

#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/JsonReport.h"
#include "report/MarkdownReport.h"
#include "support/AtomicFile.h"

namespace kl::core::report {

std::optional<ReportFormat> parseReportFormat(std::string_view name) {
    if (name == "html" || name == "htm")
        return ReportFormat::Html;
    if (name == "pdf")
        return ReportFormat::Pdf;
    if (name == "md" || name == "markdown")
        return ReportFormat::Markdown;
    if (name == "json")
        return ReportFormat::Json;
    if (name == "csv")
        return ReportFormat::Csv;
    return std::nullopt;
}

bool isVisual(ReportFormat format) {
    return format == ReportFormat::Html || format == ReportFormat::Pdf;
}

Expected<void> writeReport(const Report& report, ReportFormat format, const std::filesystem::path& path) {
    std::string bytes;
    switch (format) {
    case ReportFormat::Html: bytes = HtmlReport::write(report); break;
    case ReportFormat::Markdown: bytes = MarkdownReport::write(report); break;
    case ReportFormat::Json: bytes = JsonReport::write(report); break;
    case ReportFormat::Csv: bytes = CsvReport::write(report); break;
    case ReportFormat::Pdf:
        return makeError(ErrorCode::Unsupported, "PDF reports are drawn by Qt (app/report/ReportQt.h)", path.string());
    }
    return writeFileAtomically(path, bytes, /*privateToOwner=*/false, "the report");
}

} // namespace kl::core::report
