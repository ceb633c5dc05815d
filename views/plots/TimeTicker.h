#pragma once

#include <qcustomplot.h>

namespace kl::views {

/// Ticks a QCustomPlot time axis (keys in picoseconds) exactly as the timeline's ruler does: the same 1-2-5
/// steps for the same pixel width (computeTimeTicks with TimelineView::kTickSpacingPx) and the same labels
/// (formatTime: "250 ns", "1.5 us", "12.25 ms"), so that the ticks of the ruler and of every plot under it
/// fall on the same pixels.
class TimeTicker : public QCPAxisTicker {
public:
    explicit TimeTicker(QCPAxis* axis) : m_axis(axis) {}

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                  QVector<double>* subTicks, QVector<QString>* tickLabels) override;

private:
    QCPAxis* m_axis; ///< owns this ticker (through a shared pointer); its rect's width sets the spacing
};

} // namespace kl::views
