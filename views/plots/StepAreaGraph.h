#pragma once

#include <qcustomplot.h>

namespace kl::views {

/// A step graph whose area is filled one pixel column at a time instead of as one polygon.
/// QCustomPlot fills a graph's area as a polygon, and Qt's aliased scan converter inserts each scanline's edge
/// crossings into an unbalanced tree: a busy step series (every pixel column rising and falling) costs time
/// quadratic in the plot's width on every scanline, about 200 ms per replot for matmul_basic_tiled's SBUF series in
/// a 640 x 27 pixel plot. Per column the area reaches the highest step that touches the column, so a peak narrower
/// than a pixel still shows; runs of equal columns are one rectangle. Any other line style, a vertical key axis or
/// a channel fill is drawn as QCPGraph draws it.
class StepAreaGraph : public QCPGraph {
public:
    StepAreaGraph(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPGraph(keyAxis, valueAxis) {}

protected:
    void drawFill(QCPPainter* painter, QVector<QPointF>* lines) const override;
};

} // namespace kl::views
