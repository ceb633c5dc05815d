#include "numerics/NumericsPlots.h"

#include "numerics/NumericsModel.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kl::views {

namespace {

/// Where exact cells sit on the log scale: below every error a float64 run can show.
constexpr double kExactLog = -17;
const QColor kNonFiniteColour(0, 200, 255);

QString indexText(const std::vector<std::int64_t>& index) {
    QStringList parts;
    for (std::int64_t i : index) {
        parts << QString::number(i);
    }
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QCPItemText* centredMessage(QCustomPlot* plot) {
    auto* text = new QCPItemText(plot);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    return text;
}

} // namespace

std::vector<std::int64_t> unravelIndex(std::int64_t flat, const std::vector<std::int64_t>& shape) {
    std::vector<std::int64_t> index(shape.size(), 0);
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::int64_t size = std::max<std::int64_t>(shape[d], 1);
        index[d] = flat % size;
        flat /= size;
    }
    return index;
}

NumericsHeatMap::NumericsHeatMap(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("numericsHeatMap"));
    layout->addWidget(m_plot);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_scale->setLabel(tr("log10 |error| (cyan: not finite)"));
    m_map->setColorScale(m_scale);
    // Non-finite errors (a NaN or inf where a number was expected) get a colour of their own, outside the scale:
    // a band the kernel never computed must stand out from the largest finite error.
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(kNonFiniteColour);
    m_map->setGradient(gradient);
    m_plot->yAxis->setRangeReversed(true); // row 0 at the top, as the output is printed
    m_plot->xAxis->setLabel(tr("column cells"));
    m_plot->yAxis->setLabel(tr("row cells"));
    m_message = centredMessage(m_plot);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    setOutput(nullptr, -1);
}

const core::NumericsOutput* NumericsHeatMap::output() const {
    if (!m_result || m_output < 0 || static_cast<std::size_t>(m_output) >= m_result->outputs.size()) {
        return nullptr;
    }
    return &m_result->outputs[static_cast<std::size_t>(m_output)];
}

void NumericsHeatMap::setOutput(std::shared_ptr<const core::NumericsResult> result, int outputIndex) {
    m_result = std::move(result);
    m_output = outputIndex;
    const core::NumericsOutput* out = output();
    const bool drawable = out && out->heatmap && out->heatmap->rows > 0 && out->heatmap->cols > 0;
    m_map->setVisible(drawable);
    m_message->setVisible(!drawable);
    if (!drawable) {
        m_map->data()->clear();
        m_message->setText(out ? tr("No heat map for %1.").arg(QString::fromStdString(out->tensor.name))
                               : tr("No numerics run yet."));
        m_plot->replot();
        return;
    }
    const core::NumericsHeatmap& h = *out->heatmap;
    m_map->data()->setSize(h.cols, h.rows);
    m_map->data()->setRange(QCPRange(0, h.cols - 1), QCPRange(0, h.rows - 1));
    double low = 0;
    double high = kExactLog;
    bool any = false;
    for (double e : h.absError) {
        if (std::isfinite(e) && e > 0) {
            const double l = std::log10(e);
            low = any ? std::min(low, l) : l;
            high = std::max(high, l);
            any = true;
        }
    }
    low = any ? std::floor(low) - 1 : kExactLog;
    high = any ? std::max(std::ceil(high), low + 1) : kExactLog + 1;
    for (int r = 0; r < h.rows; ++r) {
        for (int c = 0; c < h.cols; ++c) {
            const double e = h.absError[static_cast<std::size_t>(r) * static_cast<std::size_t>(h.cols) +
                                        static_cast<std::size_t>(c)];
            const double v = !std::isfinite(e) ? std::nan("") : e > 0 ? std::log10(e) : low;
            m_map->data()->setCell(c, r, v);
        }
    }
    m_map->setDataRange(QCPRange(low, high));
    m_plot->xAxis->setLabel(tr("columns (cells of %1)").arg(h.cellCols));
    m_plot->yAxis->setLabel(tr("rows (cells of %1)").arg(h.cellRows));
    m_plot->xAxis->setRange(-0.5, h.cols - 0.5);
    m_plot->yAxis->setRange(-0.5, h.rows - 0.5);
    m_plot->replot();
}

QString NumericsHeatMap::tooltipForCell(int row, int col) const {
    const core::NumericsOutput* out = output();
    if (!out || !out->heatmap || row < 0 || col < 0 || row >= out->heatmap->rows || col >= out->heatmap->cols) {
        return {};
    }
    const core::NumericsHeatmap& h = *out->heatmap;
    const std::size_t cell =
        static_cast<std::size_t>(row) * static_cast<std::size_t>(h.cols) + static_cast<std::size_t>(col);
    const auto index = unravelIndex(h.worst[cell], out->tensor.shape);
    QString text = tr("Cell (%1, %2): rows %3-%4, columns %5-%6 of the folded output")
                       .arg(row)
                       .arg(col)
                       .arg(row * h.cellRows)
                       .arg((row + 1) * h.cellRows - 1)
                       .arg(col * h.cellCols)
                       .arg((col + 1) * h.cellCols - 1);
    text += QLatin1Char('\n') +
            tr("Worst element %1: |error| %2").arg(indexText(index), numericsFigureText(h.absError[cell]));
    const auto& c = out->comparison(core::ComparisonKind::NkiVsExact);
    if (c) {
        for (const core::NumericsWorstElement& w : c->worst) {
            if (w.index == index) {
                return text + QLatin1Char('\n') +
                       tr("value %1, expected %2")
                           .arg(QString::fromStdString(core::numericsNumber(w.value)),
                                QString::fromStdString(core::numericsNumber(w.expected)));
            }
        }
    }
    return text + QLatin1Char('\n') + tr("(its value and expected value are listed only for the worst elements)");
}

std::optional<std::pair<int, int>> NumericsHeatMap::cellAt(const QPoint& plotPos) const {
    const core::NumericsOutput* out = output();
    if (!out || !out->heatmap || !m_plot->axisRect()->rect().contains(plotPos)) {
        return std::nullopt;
    }
    const double x = m_plot->xAxis->pixelToCoord(plotPos.x());
    const double y = m_plot->yAxis->pixelToCoord(plotPos.y());
    const int col = static_cast<int>(std::lround(x));
    const int row = static_cast<int>(std::lround(y));
    if (row < 0 || col < 0 || row >= out->heatmap->rows || col >= out->heatmap->cols) {
        return std::nullopt;
    }
    return std::make_pair(row, col);
}

bool NumericsHeatMap::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto cell = cellAt(help->pos())) {
            QToolTip::showText(help->globalPos(), tooltipForCell(cell->first, cell->second), m_plot);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

NumericsHistogramPlot::NumericsHistogramPlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("numericsHistogram"));
    layout->addWidget(m_plot);
    m_bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bars->setPen(QPen(QColor(38, 110, 190)));
    m_bars->setBrush(QColor(38, 110, 190, 150));
    m_plot->yAxis->setLabel(tr("elements"));
    m_message = centredMessage(m_plot);
    setOutput(nullptr);
}

void NumericsHistogramPlot::setOutput(const core::NumericsOutput* output) {
    m_bars->data()->clear();
    const bool drawable = output && output->histogram && !output->histogram->counts.empty();
    m_message->setVisible(!drawable);
    if (!drawable) {
        m_message->setText(output ? tr("No histogram for this output.") : tr("No numerics run yet."));
        m_plot->xAxis->setLabel(tr("log10 |error|"));
        m_plot->replot();
        return;
    }
    const core::NumericsHistogram& h = *output->histogram;
    QVector<double> keys;
    QVector<double> values;
    double top = 0;
    double narrowest = INFINITY;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        keys << (h.log10Edges[i] + h.log10Edges[i + 1]) / 2;
        values << static_cast<double>(h.counts[i]);
        top = std::max(top, values.back());
        narrowest = std::min(narrowest, h.log10Edges[i + 1] - h.log10Edges[i]);
    }
    m_bars->setWidth(std::isfinite(narrowest) && narrowest > 0 ? narrowest * 0.9 : 0.9);
    m_bars->setData(keys, values, true);
    m_plot->xAxis->setLabel(tr("log10 |error|  (%1 elements exact)").arg(h.zeros));
    m_plot->xAxis->setRange(h.log10Edges.front() - 0.5, h.log10Edges.back() + 0.5);
    m_plot->yAxis->setRange(0, std::max(1.0, top * 1.1));
    m_plot->replot();
}

} // namespace kl::views
