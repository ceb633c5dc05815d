#include "plots/StepAreaGraph.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kl::views {

namespace {

/// The vertical extent the area covers in one pixel column (pixel y grows downwards).
struct ColumnExtent {
    double top = 0;
    double bottom = 0;
    bool covered = false;
};

bool isStepStyle(QCPGraph::LineStyle style) {
    return style == QCPGraph::lsStepLeft || style == QCPGraph::lsStepRight || style == QCPGraph::lsStepCenter;
}

} // namespace

void StepAreaGraph::drawFill(QCPPainter* painter, QVector<QPointF>* lines) const {
    QCPAxis* key = keyAxis();
    QCPAxis* value = valueAxis();
    if (!key || !value || key->orientation() != Qt::Horizontal || channelFillGraph() || !isStepStyle(lineStyle()) ||
        painter->brush().style() == Qt::NoBrush) {
        QCPGraph::drawFill(painter, lines);
        return;
    }
    if (lines->size() < 2) {
        return;
    }
    const QRect area = key->axisRect()->rect();
    const int left = area.left();
    const int width = area.width();
    if (width <= 0) {
        return;
    }
    // The area reaches from each step to the value axis's zero, held inside the plot.
    const double base = std::clamp(value->coordToPixel(0), double(area.top()), double(area.bottom() + 1));
    std::vector<ColumnExtent> columns(static_cast<std::size_t>(width));
    // A step line alternates horizontal runs and vertical jumps; every run covers the columns it crosses.
    for (qsizetype i = 0; i + 1 < lines->size(); ++i) {
        const QPointF a = (*lines)[i];
        const QPointF b = (*lines)[i + 1];
        if (a.y() != b.y() || !std::isfinite(a.x()) || !std::isfinite(b.x())) {
            continue;
        }
        const double x0 = std::min(a.x(), b.x()) - left;
        const double x1 = std::max(a.x(), b.x()) - left;
        const int first = std::max(0, static_cast<int>(std::floor(x0)));
        const int last = std::min(width - 1, static_cast<int>(std::ceil(x1)) - 1);
        const double top = std::clamp(std::min(a.y(), base), double(area.top()), base);
        const double bottom = std::clamp(std::max(a.y(), base), base, double(area.bottom() + 1));
        for (int c = first; c <= last; ++c) {
            ColumnExtent& column = columns[static_cast<std::size_t>(c)];
            column.top = column.covered ? std::min(column.top, top) : top;
            column.bottom = column.covered ? std::max(column.bottom, bottom) : bottom;
            column.covered = true;
        }
    }
    // One rectangle per run of equal columns: a flat stretch of the series is one fill.
    for (int c = 0; c < width;) {
        const ColumnExtent& column = columns[static_cast<std::size_t>(c)];
        int end = c + 1;
        while (end < width && columns[static_cast<std::size_t>(end)].covered == column.covered &&
               columns[static_cast<std::size_t>(end)].top == column.top &&
               columns[static_cast<std::size_t>(end)].bottom == column.bottom) {
            ++end;
        }
        if (column.covered && column.bottom > column.top) {
            painter->drawRect(QRectF(left + c, column.top, end - c, column.bottom - column.top));
        }
        c = end;
    }
}

} // namespace kl::views
