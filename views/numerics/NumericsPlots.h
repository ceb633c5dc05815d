#pragma once

#include "numerics/NumericsResult.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

class QCPBars;
class QCPColorMap;
class QCPColorScale;
class QCPItemText;
class QCustomPlot;

namespace kl::views {

/// The error heat map of one output (NKI vs exact; QCPColorMap): the output folded to 2-D and cut into cells, each
/// coloured by log10 of its largest absolute error, exact cells at the bottom of the scale and non-finite ones at
/// the top. Hovering a cell shows a tooltip with the cell's element range, its worst element's index and error,
/// and that element's value and expected value when the document lists it among the worst elements.
class NumericsHeatMap : public QWidget {
    Q_OBJECT
public:
    explicit NumericsHeatMap(QWidget* parent = nullptr);

    /// `output` of `result` (which must outlive the next call), or nothing.
    void setOutput(std::shared_ptr<const core::NumericsResult> result, int output);

    [[nodiscard]] QCustomPlot* plot() const { return m_plot; }
    [[nodiscard]] QCPColorMap* colorMap() const { return m_map; }
    /// The tooltip text of cell (row, col); empty outside the map.
    [[nodiscard]] QString tooltipForCell(int row, int col) const;
    /// The cell under a widget position of the plot, or nothing.
    [[nodiscard]] std::optional<std::pair<int, int>> cellAt(const QPoint& plotPos) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    [[nodiscard]] const core::NumericsOutput* output() const;

    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    QCPItemText* m_message = nullptr;
    std::shared_ptr<const core::NumericsResult> m_result;
    int m_output = -1;
};

/// The histogram of log10 |error| of one output (QCPBars, one bar per bin of the document), with the count of
/// exact elements in the axis label.
class NumericsHistogramPlot : public QWidget {
    Q_OBJECT
public:
    explicit NumericsHistogramPlot(QWidget* parent = nullptr);

    void setOutput(const core::NumericsOutput* output);

    [[nodiscard]] QCustomPlot* plot() const { return m_plot; }
    [[nodiscard]] QCPBars* bars() const { return m_bars; }

private:
    QCustomPlot* m_plot = nullptr;
    QCPBars* m_bars = nullptr;
    QCPItemText* m_message = nullptr;
};

/// Row-major multi-index of flat element `flat` in `shape` ("[3, 17]").
[[nodiscard]] std::vector<std::int64_t> unravelIndex(std::int64_t flat, const std::vector<std::int64_t>& shape);

} // namespace kl::views
