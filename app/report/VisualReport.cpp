// The visual report in one call, for kernellens-cli-qt's `report` command.
#include "report/ReportQt.h"

namespace kl::app::report {

Expected<void> writeVisualReport(core::report::Report& report, core::report::ReportFormat format,
                                 const std::string& path) {
    QtSession session;
    for (auto& task : report.tasks) {
        attachTimelineImage(task);
    }
    return format == core::report::ReportFormat::Pdf ? writePdf(report, path)
                                                     : core::report::writeReport(report, format, path);
}

} // namespace kl::app::report
