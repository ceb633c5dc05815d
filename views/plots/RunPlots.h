#pragma once

#include "result/SimResult.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemRect;
class QCPLegend;
class QToolButton;

namespace kl::views {

struct RunPlotData;

/// SBUF and PSUM occupancy (% of capacity), DMA bandwidth (GB/s) and DMA/compute overlap, stacked on one
/// time axis that follows the timeline: setTimeRange() is connected to TimelineView::visibleRangeChanged.
/// Exposed DMA (DMA running while every compute engine idles) is shaded in the overlap plot.
/// Keys are picoseconds and the axes tick as the timeline's ruler does (TimeTicker); the owner lines the plot
/// area up with the timeline's lanes to the pixel (setHorizontalMargins). The legend is a row above the plots,
/// never over the data; a range selected on the timeline is shaded on every plot. The plots never pan or zoom
/// by themselves. Each plot can be hidden ("Plots" menu in the legend row's left corner): on a small screen fewer
/// plots get more height each.
class RunPlots : public QWidget {
    Q_OBJECT
public:
    enum class Plot { Memory, Dma, Overlap };
    static constexpr int kPlotCount = 3;

    explicit RunPlots(QWidget* parent = nullptr);

    /// Shows or hides one plot; the last one shown cannot be hidden (the time labels live under it).
    void setPlotShown(Plot plot, bool shown);
    [[nodiscard]] bool isPlotShown(Plot plot) const;
    /// The height one plot gets now, in pixels (for tests).
    [[nodiscard]] int plotHeight(Plot plot) const;
    [[nodiscard]] QToolButton* plotsButton() const { return m_plotsButton; }

    /// Shows `result`, converting its series here (small runs, tests, the second run).
    void setResult(std::shared_ptr<const sim::SimResult> result);
    /// Shows `result` with its series already converted (RunPlotData::build on the simulation worker).
    void setResult(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<const RunPlotData> data);
    /// Left edge of the plot area in pixels, so it can line up with the timeline's label column.
    void setLeftMargin(int pixels);
    /// Left and right edges of the plot areas, in pixels from this widget's edges.
    void setHorizontalMargins(int left, int right);
    /// The x pixel (in this widget) of a time, on every plot.
    [[nodiscard]] double xOf(qint64 tPs) const;
    /// Tick positions of the plots' time axis (ps), for tests.
    [[nodiscard]] QVector<double> tickPositions() const;
    /// The shaded selection on each plot (t1 <= t0: none), for tests.
    [[nodiscard]] std::pair<double, double> shadedRangePs() const;
    [[nodiscard]] QCPLegend* legend() const { return m_legend; }
    [[nodiscard]] QCustomPlot* plot() const { return m_plot; }
    /// The x range currently shown, in picoseconds (for tests).
    [[nodiscard]] std::pair<double, double> timeRangePs() const;
    [[nodiscard]] int graphCount() const;

public slots:
    void setTimeRange(qint64 t0Ps, qint64 t1Ps);
    /// Shades [t0, t1) on every plot; t1 <= t0 clears it.
    void setSelectedRange(qint64 t0Ps, qint64 t1Ps);

signals:
    void shownPlotsChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    QCPAxisRect* addRect(const QString& label);
    void showValueAt(QMouseEvent* event);
    void applyColours();
    void relayoutPlots();
    void buildPlotsMenu();

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_sbuf = nullptr;
    QCPGraph* m_psum = nullptr;
    QCPGraph* m_dma = nullptr;
    QCPGraph* m_compute = nullptr;
    QCPGraph* m_exposed = nullptr;
    QCPLegend* m_legend = nullptr;
    QList<QCPItemRect*> m_selection; ///< one shade per plot
    QList<QCPAxisRect*> m_rects;     ///< every plot, shown or not, in Plot order
    bool m_shown[kPlotCount] = {true, true, true};
    QToolButton* m_plotsButton = nullptr;
    std::shared_ptr<const sim::SimResult> m_result;
    std::shared_ptr<const RunPlotData> m_data; ///< the series the graphs share
};

} // namespace kl::views
