#include "plots/RunPlots.h"

#include "analysis/ActivityIntervals.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

namespace kl::views {

namespace {

constexpr double kPsPerUs = 1e6;

// Step data from intervals: 1 inside, 0 outside.
void setIntervalData(QCPGraph* graph, const core::Intervals& intervals) {
    QVector<double> keys;
    QVector<double> values;
    keys.reserve(static_cast<int>(intervals.size() * 2 + 1));
    values.reserve(keys.capacity());
    keys.push_back(0);
    values.push_back(0);
    for (const auto& [s, e] : intervals) {
        keys.push_back(static_cast<double>(s) / kPsPerUs);
        values.push_back(1);
        keys.push_back(static_cast<double>(e) / kPsPerUs);
        values.push_back(0);
    }
    graph->setData(keys, values, /*alreadySorted=*/true);
}

template <typename Values, typename Convert>
void setStepData(QCPGraph* graph, const std::vector<sim::TimePs>& times, const Values& values, Convert convert) {
    QVector<double> keys;
    QVector<double> ys;
    keys.reserve(static_cast<int>(times.size()));
    ys.reserve(static_cast<int>(times.size()));
    for (std::size_t i = 0; i < times.size() && i < values.size(); ++i) {
        keys.push_back(static_cast<double>(times[i]) / kPsPerUs);
        ys.push_back(convert(values[i]));
    }
    graph->setData(keys, ys, /*alreadySorted=*/true);
}

QCPGraph* addStepGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name, const QColor& colour, bool fill) {
    QCPGraph* graph = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(QPen(colour, 1.2));
    if (fill) {
        QColor area = colour;
        area.setAlpha(70);
        graph->setBrush(area);
    }
    graph->setAdaptiveSampling(true);
    return graph;
}

} // namespace

RunPlots::RunPlots(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->plotLayout()->clear();
    layout->addWidget(m_plot);

    QCPAxisRect* memory = addRect(tr("On-chip %"));
    QCPAxisRect* dma = addRect(tr("DMA GB/s"));
    QCPAxisRect* overlap = addRect(tr("Overlap"));
    memory->axis(QCPAxis::atLeft)->setRange(0, 105);
    overlap->axis(QCPAxis::atLeft)->setRange(0, 1.15);
    overlap->axis(QCPAxis::atLeft)->setTicks(false);
    overlap->axis(QCPAxis::atBottom)->setLabel(tr("time (us)"));

    m_sbuf = addStepGraph(m_plot, memory, tr("SBUF % of capacity"), QColor(38, 110, 190), true);
    m_psum = addStepGraph(m_plot, memory, tr("PSUM % of capacity"), QColor(176, 102, 196), false);
    m_dma = addStepGraph(m_plot, dma, tr("DMA bandwidth (GB/s)"), QColor(120, 128, 140), true);
    m_compute = addStepGraph(m_plot, overlap, tr("compute busy"), QColor(106, 176, 76), true);
    m_exposed = addStepGraph(m_plot, overlap, tr("exposed DMA"), QColor(220, 60, 60), true);

    auto* legend = new QCPLegend;
    memory->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
    legend->addItem(new QCPPlottableLegendItem(legend, m_sbuf));
    legend->addItem(new QCPPlottableLegendItem(legend, m_psum));
    auto* overlapLegend = new QCPLegend;
    overlap->insetLayout()->addElement(overlapLegend, Qt::AlignTop | Qt::AlignRight);
    overlapLegend->addItem(new QCPPlottableLegendItem(overlapLegend, m_compute));
    overlapLegend->addItem(new QCPPlottableLegendItem(overlapLegend, m_exposed));
    for (QCPLegend* l : {legend, overlapLegend}) {
        l->setFont(font());
        l->setBrush(QColor(255, 255, 255, 200));
    }
    connect(m_plot, &QCustomPlot::mouseMove, this, &RunPlots::showValueAt);
    m_plot->replot();
}

QCPAxisRect* RunPlots::addRect(const QString& label) {
    auto* rect = new QCPAxisRect(m_plot);
    const int row = m_plot->plotLayout()->rowCount();
    m_plot->plotLayout()->addElement(row, 0, rect);
    rect->setupFullAxesBox(false);
    rect->axis(QCPAxis::atLeft)->setLabel(label);
    rect->setAutoMargins(QCP::msBottom | QCP::msTop);
    rect->setMargins(QMargins(80, 0, 10, 0));
    rect->setMinimumSize(100, 50);
    return rect;
}

void RunPlots::setLeftMargin(int pixels) {
    for (QCPAxisRect* rect : m_plot->axisRects()) {
        QMargins m = rect->margins();
        m.setLeft(pixels);
        rect->setMargins(m);
    }
    m_plot->replot();
}

void RunPlots::setResult(std::shared_ptr<const sim::SimResult> result) {
    m_result = std::move(result);
    for (QCPGraph* g : {m_sbuf, m_psum, m_dma, m_compute, m_exposed}) {
        g->data()->clear();
    }
    if (m_result) {
        // The converter keeps the capacity by value: it must not refer back into this lambda's frame.
        const auto pct = [](const sim::OccupancySeries& s) {
            return [capacity = s.capacityPartitionBytes](std::int64_t partitionBytes) {
                return capacity > 0 ? 100.0 * static_cast<double>(partitionBytes) / static_cast<double>(capacity) : 0.0;
            };
        };
        setStepData(m_sbuf, m_result->sbuf.timePs, m_result->sbuf.partitionBytes, pct(m_result->sbuf));
        setStepData(m_psum, m_result->psum.timePs, m_result->psum.partitionBytes, pct(m_result->psum));
        // bytes per ns is GB/s.
        setStepData(m_dma, m_result->dma.timePs, m_result->dma.bytesPerNs, [](double v) { return v; });
        const auto compute = core::computeBusy(*m_result);
        setIntervalData(m_compute, compute);
        setIntervalData(m_exposed, core::subtract(core::dmaBusy(*m_result), compute));
        bool found = false;
        const QCPRange dmaRange = m_dma->getValueRange(found);
        m_dma->valueAxis()->setRange(0, found ? std::max(1.0, dmaRange.upper * 1.1) : 1.0);
        setTimeRange(0, m_result->summary.totalPs);
    }
    m_plot->replot();
}

void RunPlots::setTimeRange(qint64 t0Ps, qint64 t1Ps) {
    for (QCPAxisRect* rect : m_plot->axisRects()) {
        rect->axis(QCPAxis::atBottom)->setRange(static_cast<double>(t0Ps) / kPsPerUs,
                                                static_cast<double>(t1Ps) / kPsPerUs);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

std::pair<double, double> RunPlots::timeRangePs() const {
    const QCPRange r = m_plot->axisRect(0)->axis(QCPAxis::atBottom)->range();
    return {r.lower * kPsPerUs, r.upper * kPsPerUs};
}

int RunPlots::graphCount() const { return m_plot->graphCount(); }

void RunPlots::showValueAt(QMouseEvent* event) {
    QCPAxisRect* rect = m_plot->axisRectAt(event->pos());
    if (rect == nullptr || !m_result) {
        QToolTip::hideText();
        return;
    }
    const double key = rect->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
    QStringList lines{tr("t = %1 us").arg(key, 0, 'f', 3)};
    for (QCPGraph* graph : rect->graphs()) {
        auto it = graph->data()->findBegin(key, /*expandedRange=*/false);
        if (it != graph->data()->constBegin() && (it == graph->data()->constEnd() || it->key > key)) {
            --it;
        }
        if (it != graph->data()->constEnd()) {
            lines << QStringLiteral("%1: %2").arg(graph->name()).arg(it->value, 0, 'f', 2);
        }
    }
    QToolTip::showText(event->globalPosition().toPoint(), lines.join(QLatin1Char('\n')), m_plot);
}

} // namespace kl::views
