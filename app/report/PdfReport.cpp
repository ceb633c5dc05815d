// The PDF report: the HTML report in its QTextDocument flavour, laid out on A4 by QPdfWriter.
#include "report/ReportQt.h"

#include "report/HtmlReport.h"

#include <fmt/format.h>

#include <QFile>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace kl::app::report {

Expected<void> writePdf(const core::report::Report& report, const std::string& path) {
    const QString file = QString::fromStdString(path);
    QPdfWriter writer(file);
    if (!writer.pageLayout().isValid()) {
        return makeError(ErrorCode::Io, "cannot write the PDF", path);
    }
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setResolution(150);
    writer.setTitle(QString::fromStdString(report.title));
    writer.setCreator(QStringLiteral("KernelLens"));

    QTextDocument doc;
    doc.setDocumentMargin(0);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9.0);
    doc.setDefaultFont(font);
    doc.setDefaultStyleSheet(QStringLiteral(
        "h1 { font-size: 16pt; } h2 { font-size: 13pt; color: #1d3f7a; } h3 { font-size: 11pt; color: #2d3b4e; }"
        "th { background-color: #f0f3f7; text-align: left; } .meta { color: #5b6573; } .anchor { color: #3c4654; }"
        "pre { font-family: 'DejaVu Sans Mono'; font-size: 7.5pt; background-color: #f6f8fa; }"
        ".ln { color: #8893a0; } .when { color: #5b6573; } .marker { background-color: #1d232a; color: #ffffff; }"
        ".state { background-color: #eef1f5; } .resolved { background-color: #dff0e2; }"
        ".reply { margin-left: 12px; } .text { margin-top: 3px; margin-bottom: 3px; }"));
    // The document is laid out in 96-dpi pixels (what QTextDocument assumes for fonts and images) on a page
    // the size of the writer's printable area; print() scales it to the writer's resolution.
    const QSizeF page = writer.pageLayout().paintRect(QPageLayout::Point).size() * (96.0 / 72.0);
    doc.setPageSize(page);
    const double textWidthPx = page.width();
    core::report::HtmlReport::Options options;
    options.forQtTextDocument = true;
    options.imageSource = [](const core::report::ReportTask& t) {
        return fmt::format("kl-timeline-{}.png", t.task.id);
    };
    options.imageWidth = static_cast<int>(textWidthPx);
    for (const auto& t : report.tasks) {
        if (t.timelinePng.empty()) {
            continue;
        }
        QImage image;
        image.loadFromData(reinterpret_cast<const uchar*>(t.timelinePng.data()), static_cast<int>(t.timelinePng.size()),
                           "PNG");
        doc.addResource(QTextDocument::ImageResource, QUrl(QString::fromStdString(options.imageSource(t))), image);
    }
    doc.setHtml(QString::fromStdString(core::report::HtmlReport::write(report, options)));
    doc.print(&writer);
    if (!QFile::exists(file)) {
        return makeError(ErrorCode::Io, "cannot write the PDF", path);
    }
    return {};
}

} // namespace kl::app::report
