#pragma once

#include "common/Error.h"
#include "report/ReportModel.h"
#include "report/ReportWriter.h"

#include <memory>
#include <string>

// The Qt half of reports: the annotated timeline image and the PDF. The header has no Qt include so
// that kernellens-cli's report command can use it whether or not it is itself a Qt program.
namespace kl::app::report {

/// Makes sure a QApplication exists while it lives: creates one on the offscreen platform (unless
/// QT_QPA_PLATFORM says otherwise) when the process has none; does nothing inside the GUI.
class QtSession {
public:
    QtSession();
    ~QtSession();
    QtSession(const QtSession&) = delete;
    QtSession& operator=(const QtSession&) = delete;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Renders the task's run (task.result) as a TimelineView offscreen, `widthPx` wide, with a numbered
/// marker for every annotation pinned to a time range or an instruction, and stores it as PNG in
/// task.timelinePng. Does nothing when the task has no run. Needs a QApplication (QtSession).
void attachTimelineImage(core::report::ReportTask& task, int widthPx = 1400);

/// Writes the report as PDF (A4, QTextDocument from the HTML report + QPdfWriter), images included.
[[nodiscard]] Expected<void> writePdf(const core::report::Report& report, const std::string& path);

/// A visual report (core::report::isVisual) with everything above: a QtSession, every task's timeline image,
/// then the PDF or the HTML. kernellens-cli-qt installs it as the CLI's VisualReportWriter.
[[nodiscard]] Expected<void> writeVisualReport(core::report::Report& report, core::report::ReportFormat format,
                                               const std::string& path);

} // namespace kl::app::report
