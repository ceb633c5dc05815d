#pragma once

#include "result/SimResult.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;

namespace kl::views {

/// SBUF and PSUM occupancy (% of capacity), DMA bandwidth (GB/s) and DMA/compute overlap, stacked on one
/// time axis that follows the timeline: setTimeRange() is connected to TimelineView::visibleRangeChanged.
/// Exposed DMA (DMA running while every compute engine idles) is shaded in the overlap plot.
/// Time on the x axis is in microseconds; the plots never pan or zoom by themselves.
class RunPlots : public QWidget {
    Q_OBJECT
public:
    explicit RunPlots(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const sim::SimResult> result);
    /// Left edge of the plot area in pixels, so it can line up with the timeline's label column.
    void setLeftMargin(int pixels);
    [[nodiscard]] QCustomPlot* plot() const { return m_plot; }
    /// The x range currently shown, in picoseconds (for tests).
    [[nodiscard]] std::pair<double, double> timeRangePs() const;
    [[nodiscard]] int graphCount() const;

public slots:
    void setTimeRange(qint64 t0Ps, qint64 t1Ps);

private:
    QCPAxisRect* addRect(const QString& label);
    void showValueAt(QMouseEvent* event);

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_sbuf = nullptr;
    QCPGraph* m_psum = nullptr;
    QCPGraph* m_dma = nullptr;
    QCPGraph* m_compute = nullptr;
    QCPGraph* m_exposed = nullptr;
    std::shared_ptr<const sim::SimResult> m_result;
};

} // namespace kl::views
