#include "plots/TimeTicker.h"

#include "timeline/TimeAxis.h"
#include "timeline/TimelineView.h"

#include <cmath>

namespace kl::views {

void TimeTicker::generate(const QCPRange& range, const QLocale&, QChar, int, QVector<double>& ticks,
                          QVector<double>* subTicks, QVector<QString>* tickLabels) {
    ticks.clear();
    if (subTicks != nullptr) {
        subTicks->clear();
    }
    if (tickLabels != nullptr) {
        tickLabels->clear();
    }
    const double width = m_axis->axisRect() != nullptr ? m_axis->axisRect()->width() : 0;
    const auto t0 = static_cast<TimePs>(std::llround(range.lower));
    const auto t1 = static_cast<TimePs>(std::llround(range.upper));
    const TimeTicks timeTicks = computeTimeTicks(t0, t1, width, TimelineView::kTickSpacingPx);
    for (TimePs t : timeTicks.ticks) {
        ticks.push_back(static_cast<double>(t));
        if (tickLabels != nullptr) {
            tickLabels->push_back(QString::fromStdString(formatTime(t, timeTicks.step)));
        }
    }
}

} // namespace kl::views
