#include "findings/RooflinePlot.h"

#include "plots/PlotTheme.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kl::views {

namespace {

constexpr double kPerNsToPerS = 1e9; // the core's figures are per nanosecond; people read roofs per second

/// "95.0 TFLOP/s", "272 GB/s": a rate with an SI prefix.
QString rateText(double perSecond, const QString& unit) {
    static const std::pair<double, const char*> kPrefixes[] = {
        {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const auto& [scale, prefix] : kPrefixes) {
        if (perSecond >= scale) {
            return QStringLiteral("%1 %2%3/s").arg(perSecond / scale, 0, 'g', 3).arg(QLatin1String(prefix), unit);
        }
    }
    return QStringLiteral("%1 %2/s").arg(perSecond, 0, 'g', 3).arg(unit);
}

double decadeBelow(double v) {
    return std::pow(10.0, std::floor(std::log10(v)));
}
double decadeAbove(double v) {
    return std::pow(10.0, std::ceil(std::log10(v)));
}

void setLogAxis(QCPAxis* axis, const QString& label) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("eb")); // 1e3, 1e12: a log axis reads best in powers of ten
    axis->setNumberPrecision(0);
    axis->setLabel(label);
}

} // namespace

RooflinePlot::RooflinePlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("rooflinePlot"));
    layout->addWidget(m_plot);
    setLogAxis(m_plot->xAxis, tr("Arithmetic intensity (FLOP per HBM byte)"));
    setLogAxis(m_plot->yAxis, tr("Achieved FLOP/s")); // short: the dock may be low

    m_memoryRoof = m_plot->addGraph();
    m_memoryRoof->setPen(QPen(QColor(38, 110, 190), 2));
    m_computeRoof = m_plot->addGraph();
    m_computeRoof->setPen(QPen(QColor(106, 76, 176), 2));
    m_point = m_plot->addGraph();
    m_point->setLineStyle(QCPGraph::lsNone);
    m_point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(220, 60, 60), 10));
    m_point->setName(tr("this kernel"));

    m_pointLabel = new QCPItemText(m_plot);
    m_pointLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_pointLabel->setPadding(QMargins(6, 0, 0, 4));
    m_message = new QCPItemText(m_plot);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setText(tr("No run yet."));
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    PlotTheme::follow(m_plot);
    setPoint(std::nullopt);
}

void RooflinePlot::drawRoofs(const core::findings::RooflinePoint& p, double xMin, double xMax) {
    const double peak = p.peakFlopsPerNs * kPerNsToPerS;
    const double roof = p.roofBytesPerNs * kPerNsToPerS;
    m_memoryRoof->setData({xMin, p.ridge}, {roof * xMin, peak});
    m_computeRoof->setData({p.ridge, xMax}, {peak, peak});
    m_memoryRoof->setName(tr("HBM roof %1 (DMA from HBM)").arg(rateText(roof, QStringLiteral("B"))));
    m_computeRoof->setName(tr("Compute roof %1 (TensorE BF16)").arg(rateText(peak, QStringLiteral("FLOP"))));
}

void RooflinePlot::setPoint(std::optional<core::findings::RooflinePoint> point) {
    for (QCPGraph* g : {m_memoryRoof, m_computeRoof, m_point}) {
        g->data()->clear();
    }
    m_pointLabel->setVisible(false);
    const bool roofs = point && point->peakFlopsPerNs > 0 && point->roofBytesPerNs > 0 && point->ridge > 0;
    if (!roofs) {
        m_message->setText(point ? tr("The hardware profile gives no roofs.") : tr("No run yet."));
        m_message->setVisible(true);
        m_memoryRoof->setName(tr("HBM roof"));
        m_computeRoof->setName(tr("Compute roof"));
        m_plot->xAxis->setRange(0.1, 1e4);
        m_plot->yAxis->setRange(1e9, 1e15);
        m_plot->replot();
        return;
    }
    const auto& p = *point;
    const bool placed = p.flops > 0 && p.hbmBytes > 0 && p.intensity > 0 && p.achievedFlopsPerNs > 0;
    const double xMin = decadeBelow(std::min(p.ridge, placed ? p.intensity : p.ridge) / 10.0);
    const double xMax = decadeAbove(std::max(p.ridge, placed ? p.intensity : p.ridge) * 10.0);
    drawRoofs(p, xMin, xMax);
    const double achieved = p.achievedFlopsPerNs * kPerNsToPerS;
    const double lowest = std::min(p.roofBytesPerNs * kPerNsToPerS * xMin, placed ? achieved : 1e300);
    m_plot->xAxis->setRange(xMin, xMax);
    m_plot->yAxis->setRange(decadeBelow(lowest), decadeAbove(p.peakFlopsPerNs * kPerNsToPerS * 3));
    m_message->setVisible(!placed);
    if (placed) {
        m_point->setData({p.intensity}, {achieved});
        m_pointLabel->position->setCoords(p.intensity, achieved);
        // The label reads away from the nearer edge, so it is never cut off.
        const bool rightHalf = std::log10(p.intensity) > (std::log10(xMin) + std::log10(xMax)) / 2;
        m_pointLabel->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        m_pointLabel->setPadding(rightHalf ? QMargins(0, 6, 8, 0) : QMargins(8, 6, 0, 0));
        m_pointLabel->setText(tr("%1, %2 FLOP/B: %3 % of the %4 roof")
                                  .arg(rateText(achieved, QStringLiteral("FLOP")))
                                  .arg(p.intensity, 0, 'g', 3)
                                  .arg(p.attainedPct, 0, 'f', 0)
                                  .arg(p.computeBound ? tr("compute") : tr("memory")));
        m_pointLabel->setVisible(true);
    } else {
        m_message->setText(p.flops <= 0 ? tr("No matmul FLOPs in this run: it has no place on the roofline.")
                                        : tr("No HBM traffic in this run: its intensity is unbounded."));
    }
    m_plot->replot();
}

QString RooflinePlot::caption() const {
    return m_pointLabel->visible() ? m_pointLabel->text() : m_message->text();
}

} // namespace kl::views
