#pragma once

#include "report/ReportModel.h"

#include <functional>
#include <string>

namespace kl::core::report {

/// The report as one self-contained HTML file: inline CSS (with @media print rules: page breaks
/// between tasks, no shadows), each task's timeline image (ReportTask::timelinePng) as a data: URI,
/// every piece of user text escaped. The same markup feeds QTextDocument for the PDF, which takes
/// images from its own resources: `imageSource` lets the caller name them. Sample:
///
///     <section class="task"><h2>Task 1: Tiled matmul</h2> ... <figure><img src="data:image/png;base64,...">
///     <ol class="annotations"><li class="annotation sev-major" id="t1-a1"> ...
class HtmlReport {
public:
    struct Options {
        /// The src of a task's timeline image; default: a data: URI of timelinePng.
        std::function<std::string(const ReportTask&)> imageSource;
        /// Width the image is shown at, in CSS pixels (0: its own width, scaled to fit the page by CSS).
        int imageWidth = 0;
        /// Markup for QTextDocument (PDF): simpler tables with cell attributes, no CSS it would ignore.
        bool forQtTextDocument = false;
    };
    [[nodiscard]] static std::string write(const Report& report, const Options& options);
    [[nodiscard]] static std::string write(const Report& report) { return write(report, Options{}); }
};

} // namespace kl::core::report
