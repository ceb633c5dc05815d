#include "plots/RunPlots.h"

#include "common/Contrast.h"
#include "plots/PlotTheme.h"
#include "plots/RunPlotData.h"
#include "plots/StepAreaGraph.h"
#include "plots/TimeTicker.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineColours.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QFontMetrics>
#include <QMenu>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace kl::views {

namespace {

constexpr double kPsPerUs = 1;       // keys are picoseconds, as on the timeline
constexpr int kMinPlotHeight = 35;   // below this a plot's two value labels overlap
constexpr int kPlotFrameHeight = 45; // the legend row and the time labels under the last plot

const char* const kPlotNames[] = {QT_TRANSLATE_NOOP("kl::views::RunPlots", "Memory (SBUF, PSUM)"),
                                  QT_TRANSLATE_NOOP("kl::views::RunPlots", "DMA bandwidth"),
                                  QT_TRANSLATE_NOOP("kl::views::RunPlots", "DMA / compute overlap")};
static_assert(std::size(kPlotNames) == kl::views::RunPlots::kPlotCount);

QCPGraph* addStepGraph(QCPAxisRect* rect, const QString& name, const QColor& colour, bool fill) {
    // The plot owns the graph (a plottable registers itself with its axes' plot).
    QCPGraph* graph = new StepAreaGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(QPen(colour, 1.2));
    graph->setBrush(fill ? QBrush(colour) : QBrush(Qt::NoBrush)); // RunPlots::applyColours sets the colours
    graph->setAdaptiveSampling(true);
    return graph;
}

} // namespace

RunPlots::RunPlots(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->plotLayout()->clear();
    m_plot->setAutoAddPlottableToLegend(false); // the default legend went with clear(); ours is added below
    m_plot->plotLayout()->setRowSpacing(2);
    // Step plots are axis-aligned: antialiasing adds nothing, and antialiased fills of thousands of steps cost
    // seconds per replot in the raster engine.
    m_plot->setNotAntialiasedElements(QCP::aePlottables | QCP::aeFills);
    layout->addWidget(m_plot);

    // The legend gets a row of its own above the plots: nothing is drawn over the data.
    m_legend = new QCPLegend;
    m_plot->plotLayout()->addElement(0, 0, m_legend);
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setLayer(QStringLiteral("legend"));
    m_legend->setFont(font());
    m_legend->setIconSize(14, 8);
    m_legend->setMargins(QMargins(0, 2, 0, 0));
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    // Its row must still hold one line of text: with only the stretch factor the layout clipped the labels.
    m_legend->setMinimumSize(0, QFontMetrics(font()).height() + 6);

    // The legend must not set the window's minimum width: the plot may be narrower than its one-row legend.
    // Three plots of at least 35 px under a legend row and over the time labels: below this QCustomPlot's
    // layout squeezes the legend out of sight and the axis labels into each other.
    m_plot->setMinimumSize(200, kPlotFrameHeight + kPlotCount * kMinPlotHeight);
    QCPAxisRect* memory = addRect(tr("Mem %"));
    QCPAxisRect* dma = addRect(tr("GB/s"));
    QCPAxisRect* overlap = addRect(tr("Overlap"));
    m_rects = {memory, dma, overlap};
    memory->axis(QCPAxis::atLeft)->setRange(0, 105);
    overlap->axis(QCPAxis::atLeft)->setRange(0, 1.15);
    overlap->axis(QCPAxis::atLeft)->setTicks(false);
    // Time labels once, under the last plot; the others keep their ticks and grid on the same positions.

    m_sbuf = addStepGraph(memory, tr("SBUF"), QColor(), true);
    m_psum = addStepGraph(memory, tr("PSUM"), QColor(), false);
    m_dma = addStepGraph(dma, tr("DMA bandwidth"), QColor(), true);
    m_compute = addStepGraph(overlap, tr("compute busy"), QColor(), true);
    m_exposed = addStepGraph(overlap, tr("exposed DMA"), QColor(), true);
    for (QCPGraph* graph : {m_sbuf, m_psum, m_dma, m_compute, m_exposed}) {
        m_legend->addItem(new QCPPlottableLegendItem(m_legend, graph));
    }
    for (QCPAxisRect* rect : m_plot->axisRects()) {
        auto* shade = new QCPItemRect(m_plot);
        shade->setClipAxisRect(rect);
        for (QCPItemPosition* corner : {shade->topLeft, shade->bottomRight}) {
            corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            corner->setAxisRect(rect);
            corner->setTypeX(QCPItemPosition::ptPlotCoords);
            corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        shade->topLeft->setCoords(0, 0);
        shade->bottomRight->setCoords(0, 1);
        shade->setVisible(false);
        m_selection.push_back(shade);
    }
    buildPlotsMenu();
    relayoutPlots();
    applyColours();
    PlotTheme::follow(m_plot);
    connect(m_plot, &QCustomPlot::mouseMove, this, &RunPlots::showValueAt);
    m_plot->replot();
}

void RunPlots::buildPlotsMenu() {
    // In the legend row's left corner, over the value-axis labels' column, so it costs the plots no height.
    m_plotsButton = new QToolButton(m_plot);
    m_plotsButton->setObjectName(QStringLiteral("plotsButton"));
    m_plotsButton->setText(tr("Plots"));
    m_plotsButton->setToolTip(tr("Choose the plots under the timeline: fewer plots get more height each"));
    m_plotsButton->setPopupMode(QToolButton::InstantPopup);
    m_plotsButton->setAutoRaise(true);
    auto* menu = new QMenu(m_plotsButton);
    for (int i = 0; i < kPlotCount; ++i) {
        QAction* action = menu->addAction(tr(kPlotNames[i]));
        action->setCheckable(true);
        action->setChecked(m_shown[i]);
        connect(action, &QAction::toggled, this, [this, i](bool on) { setPlotShown(static_cast<Plot>(i), on); });
    }
    connect(this, &RunPlots::shownPlotsChanged, menu, [this, menu] {
        const auto actions = menu->actions();
        for (int i = 0; i < kPlotCount; ++i) {
            const QSignalBlocker block(actions[i]);
            actions[i]->setChecked(m_shown[i]);
        }
    });
    m_plotsButton->setMenu(menu);
    m_plotsButton->move(2, 0);
}

void RunPlots::setPlotShown(Plot plot, bool shown) {
    const auto i = static_cast<std::size_t>(plot);
    if (m_shown[i] == shown || (!shown && std::count(std::begin(m_shown), std::end(m_shown), true) == 1)) {
        emit shownPlotsChanged(); // a refused change puts the menu's check mark back
        return;
    }
    m_shown[i] = shown;
    relayoutPlots();
    emit shownPlotsChanged();
}

bool RunPlots::isPlotShown(Plot plot) const {
    return m_shown[static_cast<std::size_t>(plot)];
}

int RunPlots::plotHeight(Plot plot) const {
    return isPlotShown(plot) ? m_rects[static_cast<int>(plot)]->rect().height() : 0;
}

void RunPlots::relayoutPlots() {
    // The shown plots go back into the layout under the legend row, in their fixed order; a hidden plot leaves
    // the layout and hides with its axes and graphs (its children), and its selection shade.
    QCPLayoutGrid* grid = m_plot->plotLayout();
    for (QCPAxisRect* rect : m_rects) {
        if (rect->layout() == grid) {
            grid->take(rect);
        }
    }
    grid->simplify();
    QCPAxisRect* last = nullptr;
    int shownCount = 0;
    for (int i = 0; i < kPlotCount; ++i) {
        QCPAxisRect* rect = m_rects[i];
        rect->setVisible(m_shown[i]);
        if (m_shown[i]) {
            grid->addElement(grid->rowCount(), 0, rect);
            rect->axis(QCPAxis::atBottom)->setTickLabels(false);
            last = rect;
            ++shownCount;
        }
    }
    last->axis(QCPAxis::atBottom)->setTickLabels(true); // time labels once, under the last plot
    m_legend->clearItems();
    for (QCPGraph* graph : {m_sbuf, m_psum, m_dma, m_compute, m_exposed}) {
        if (graph->keyAxis()->axisRect()->visible()) {
            m_legend->addItem(new QCPPlottableLegendItem(m_legend, graph));
        }
    }
    for (int i = 0; i < kPlotCount && i < m_selection.size(); ++i) {
        m_selection[i]->setVisible(m_shown[i] && m_selection[i]->visible());
    }
    m_plot->setMinimumHeight(kPlotFrameHeight + shownCount * kMinPlotHeight);
    m_plot->replot();
}

void RunPlots::applyColours() {
    // The engines' colours of the timeline, in the palette's variant (light or dark).
    const bool dark = isDarkPalette(palette());
    const auto colour = [dark](int slot) { return TimelineColours::slotColour(slot, dark); };
    const QColor exposed = dark ? QColor(255, 110, 100) : QColor(200, 40, 40);
    const std::pair<QCPGraph*, QColor> graphs[] = {
        {m_sbuf, colour(1)}, {m_psum, colour(4)}, {m_dma, colour(5)}, {m_compute, colour(3)}, {m_exposed, exposed}};
    for (const auto& [graph, c] : graphs) {
        graph->setPen(QPen(c, 0)); // cosmetic: the raster engine strokes it fast
        if (graph->brush().style() != Qt::NoBrush) {
            QColor area = c;
            area.setAlpha(dark ? 90 : 70);
            graph->setBrush(area);
        }
    }
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlpha(50);
    for (QCPItemRect* rect : m_selection) {
        rect->setBrush(shade);
        rect->setPen(Qt::NoPen);
    }
}

void RunPlots::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyColours();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QCPAxisRect* RunPlots::addRect(const QString& label) {
    auto* rect = new QCPAxisRect(m_plot);
    const int row = m_plot->plotLayout()->rowCount();
    m_plot->plotLayout()->addElement(row, 0, rect);
    rect->setupFullAxesBox(false);
    rect->axis(QCPAxis::atLeft)->setLabel(label);
    rect->axis(QCPAxis::atBottom)
        ->setTicker(QSharedPointer<QCPAxisTicker>(new TimeTicker(rect->axis(QCPAxis::atBottom))));
    rect->axis(QCPAxis::atTop)->setTicker(rect->axis(QCPAxis::atBottom)->ticker());
    rect->setAutoMargins(QCP::msBottom | QCP::msTop);
    rect->setMargins(QMargins(80, 0, 10, 0));
    rect->setMinimumSize(100, 35);
    // A plot is often only 25-40 px tall: two value labels (zero and one round step) are what fits without overlap.
    rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(1);
    return rect;
}

void RunPlots::setLeftMargin(int pixels) {
    for (QCPAxisRect* rect : m_rects) {
        QMargins m = rect->margins();
        m.setLeft(pixels);
        rect->setMargins(m);
    }
    m_plot->replot();
}

void RunPlots::setHorizontalMargins(int left, int right) {
    bool changed = false;
    for (QCPAxisRect* rect : m_rects) {
        QMargins m = rect->margins();
        changed = changed || m.left() != left || m.right() != right;
        m.setLeft(left);
        m.setRight(right);
        rect->setMargins(m);
    }
    m_legend->setMargins(QMargins(left, 2, right, 0));
    if (changed) {
        m_plot->replot();
    }
}

double RunPlots::xOf(qint64 tPs) const {
    return m_plot->axisRect(0)->axis(QCPAxis::atBottom)->coordToPixel(static_cast<double>(tPs)) +
           m_plot->mapTo(this, QPoint(0, 0)).x();
}

QVector<double> RunPlots::tickPositions() const {
    QCPAxis* axis = m_plot->axisRect(0)->axis(QCPAxis::atBottom);
    return axis->tickVector();
}

std::pair<double, double> RunPlots::shadedRangePs() const {
    QCPItemRect* shade = m_selection.front();
    for (int i = 0; i < m_selection.size(); ++i) {
        if (m_shown[i]) {
            shade = m_selection[i];
            break;
        }
    }
    if (!shade->visible()) {
        return {0, 0};
    }
    return {shade->topLeft->coords().x(), shade->bottomRight->coords().x()};
}

void RunPlots::setSelectedRange(qint64 t0Ps, qint64 t1Ps) {
    for (int i = 0; i < m_selection.size(); ++i) {
        QCPItemRect* shade = m_selection[i];
        shade->setVisible(t1Ps > t0Ps && m_shown[i]);
        shade->topLeft->setCoords(static_cast<double>(t0Ps), 0);
        shade->bottomRight->setCoords(static_cast<double>(t1Ps), 1);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RunPlots::setResult(std::shared_ptr<const sim::SimResult> result) {
    auto data = result ? RunPlotData::build(*result) : nullptr;
    setResult(std::move(result), std::move(data));
}

void RunPlots::setResult(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<const RunPlotData> data) {
    m_result = std::move(result);
    m_data = m_result ? std::move(data) : nullptr;
    if (m_result && !m_data) {
        m_data = RunPlotData::build(*m_result);
    }
    // The graphs share the built containers (no copy): installing a run costs the same whatever its size.
    const auto install = [](QCPGraph* graph, const QSharedPointer<QCPGraphDataContainer>& series) {
        graph->setData(series ? series : QSharedPointer<QCPGraphDataContainer>::create());
    };
    install(m_sbuf, m_data ? m_data->sbuf : nullptr);
    install(m_psum, m_data ? m_data->psum : nullptr);
    install(m_dma, m_data ? m_data->dma : nullptr);
    install(m_compute, m_data ? m_data->compute : nullptr);
    install(m_exposed, m_data ? m_data->exposed : nullptr);
    setSelectedRange(0, 0);
    if (m_result) {
        m_dma->valueAxis()->setRange(0, std::max(1.0, m_data->dmaPeakGBps * 1.1));
        setTimeRange(0, m_result->summary.totalPs);
    }
    m_plot->replot();
}

void RunPlots::setTimeRange(qint64 t0Ps, qint64 t1Ps) {
    for (QCPAxisRect* rect : m_rects) {
        rect->axis(QCPAxis::atBottom)
            ->setRange(static_cast<double>(t0Ps) / kPsPerUs, static_cast<double>(t1Ps) / kPsPerUs);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

std::pair<double, double> RunPlots::timeRangePs() const {
    const QCPRange r = m_plot->axisRect(0)->axis(QCPAxis::atBottom)->range();
    return {r.lower * kPsPerUs, r.upper * kPsPerUs};
}

int RunPlots::graphCount() const {
    return m_plot->graphCount();
}

void RunPlots::showValueAt(QMouseEvent* event) {
    QCPAxisRect* rect = m_plot->axisRectAt(event->pos());
    if (rect == nullptr || !m_result) {
        QToolTip::hideText();
        return;
    }
    QCPAxis* timeAxis = rect->axis(QCPAxis::atBottom);
    const double key = timeAxis->pixelToCoord(event->pos().x());
    // As precise as one pixel of the axis, with the unit of each plot's figure.
    const auto pixelPs = static_cast<sim::TimePs>(std::max(1.0, timeAxis->range().size() / std::max(1, rect->width())));
    QStringList lines{tr("t = %1").arg(QString::fromStdString(formatTimeFor(static_cast<sim::TimePs>(key), pixelPs)))};
    for (QCPGraph* graph : rect->graphs()) {
        auto it = graph->data()->findBegin(key, /*expandedRange=*/false);
        if (it != graph->data()->constBegin() && (it == graph->data()->constEnd() || it->key > key)) {
            --it;
        }
        if (it == graph->data()->constEnd()) {
            continue;
        }
        QString value;
        if (graph == m_compute || graph == m_exposed) {
            value = it->value > 0.5 ? tr("yes") : tr("no");
        } else if (graph == m_dma) {
            value = tr("%1 GB/s").arg(it->value, 0, 'f', 1);
        } else {
            value = QStringLiteral("%1 %").arg(it->value, 0, 'f', 1);
        }
        lines << QStringLiteral("%1: %2").arg(graph->name(), value);
    }
    QToolTip::showText(event->globalPosition().toPoint(), lines.join(QLatin1Char('\n')), m_plot);
}

} // namespace kl::views
