// The annotated timeline image of a report: a TimelineView rendered offscreen, with a strip of
// numbered markers above it and a translucent band over the time each annotation covers.
#include "report/ReportQt.h"

#include "report/ReportText.h"
#include "review/AnnotationListModel.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QStyle>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace kl::app::report {

namespace {

constexpr int kMarkerStrip = 22; ///< height of one row of markers above the timeline
constexpr int kMaxMarkerRows = 4;
constexpr int kMarkerRadius = 9;

struct Placed {
    const core::report::ReportAnnotation* annotation;
    double x0, x1, cx;
    int row;
};

/// Markers in rows, greedily: a marker goes on the first row where it does not overlap the previous one;
/// when all rows are taken it goes on the least recently used row (overlapping, but still readable by colour).
std::vector<Placed> placeMarkers(const core::report::ReportTask& task, const views::TimelineView& view) {
    std::vector<Placed> placed;
    for (const auto& a : task.annotations) {
        if (!core::report::hasTimelineMarker(a)) {
            continue;
        }
        const auto [t0, t1] = core::report::markerInterval(a);
        const double x0 = view.xOf(t0);
        const double x1 = std::max(view.xOf(t1), x0 + 1.0);
        placed.push_back({&a, x0, x1, (x0 + x1) / 2.0, 0});
    }
    std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.cx < b.cx; });
    std::vector<double> rowEnd(kMaxMarkerRows, -1e9);
    for (Placed& p : placed) {
        int row = 0;
        while (row < kMaxMarkerRows && rowEnd[row] > p.cx - 2 * kMarkerRadius - 2) {
            ++row;
        }
        if (row == kMaxMarkerRows) {
            row = static_cast<int>(std::min_element(rowEnd.begin(), rowEnd.end()) - rowEnd.begin());
        }
        p.row = row;
        rowEnd[row] = p.cx;
    }
    return placed;
}

} // namespace

void attachTimelineImage(core::report::ReportTask& task, int widthPx) {
    if (!task.result) {
        return;
    }
    views::TimelineView view;
    // A report is read on paper and in light browsers: its image keeps the light palette whatever the theme.
    view.setPalette(QApplication::style()->standardPalette());
    view.setResult(task.result);
    const int timelineHeight = view.sizeHint().height();
    view.resize(widthPx, timelineHeight);
    view.fit();
    view.rebuildMarks();
    const std::vector<Placed> placed = placeMarkers(task, view);
    int markerRows = 0;
    for (const Placed& p : placed) {
        markerRows = std::max(markerRows, p.row + 1);
    }
    const int strip = std::max(1, markerRows) * kMarkerStrip + 4;
    const qreal dpr = 2.0; // crisp in print
    QImage image(QSize(widthPx, strip + timelineHeight) * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        view.render(&painter, QPoint(0, strip));
        painter.setRenderHint(QPainter::Antialiasing);
        QFont font = painter.font();
        font.setPixelSize(10);
        font.setBold(true);
        painter.setFont(font);
        const int plotTop = strip + views::TimelineView::kRulerHeight;
        const int plotBottom = strip + timelineHeight;
        for (const Placed& p : placed) {
            QColor c = views::AnnotationListModel::severityColour(p.annotation->annotation.severity);
            QColor band = c;
            band.setAlpha(40);
            painter.fillRect(QRectF(p.x0, plotTop, p.x1 - p.x0, plotBottom - plotTop), band);
            painter.setPen(QPen(c, 1.0, Qt::DashLine));
            const double cy = p.row * kMarkerStrip + kMarkerStrip / 2.0 + 2;
            painter.drawLine(QPointF(p.cx, cy + kMarkerRadius), QPointF(p.cx, plotTop));
            painter.setPen(QPen(Qt::white, 1.5));
            painter.setBrush(c);
            painter.drawEllipse(QPointF(p.cx, cy), kMarkerRadius, kMarkerRadius);
            painter.setPen(Qt::white);
            painter.drawText(
                QRectF(p.cx - kMarkerRadius - 4, cy - kMarkerRadius, 2 * kMarkerRadius + 8, 2 * kMarkerRadius),
                Qt::AlignCenter, QString::number(p.annotation->number));
        }
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    task.timelinePng.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    task.timelineWidth = widthPx;
    task.timelineHeight = strip + timelineHeight;
}

struct QtSession::Impl {
    int argc = 1;
    char name[16] = "kernellens-cli";
    char* argv[2] = {name, nullptr};
    std::unique_ptr<QApplication> app;
};

QtSession::QtSession() : m_impl(std::make_unique<Impl>()) {
    if (QCoreApplication::instance() != nullptr) {
        return;
    }
    if (std::getenv("QT_QPA_PLATFORM") == nullptr) {
        ::setenv("QT_QPA_PLATFORM", "offscreen", 0);
    }
    m_impl->app = std::make_unique<QApplication>(m_impl->argc, m_impl->argv);
}

QtSession::~QtSession() = default;

} // namespace kl::app::report
