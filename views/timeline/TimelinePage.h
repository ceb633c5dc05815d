#pragma once

#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QSplitter;
class QStackedWidget;

namespace kl::views {

class PlaceholderPane;
class RunPlots;
struct RunPlotData;
class SecondRunPane;
class TimelineLegend;
class TimelineRows;
class TimelineView;

/// The centre-bottom page: the colour legend, the timeline and its plots on one time axis (same unit, same
/// ticks, plot areas lined up with the lanes to the pixel whether or not the timeline has a scroll bar). Until a run
/// arrives it says what will appear (or what is happening: tracing, simulating, failed).
class TimelinePage : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePage(QWidget* parent = nullptr);

    /// The run on screen and, if known, its IR (the selection's arrows then come from every producer). `rows`:
    /// the timeline rows of `result`, built off the GUI thread (TimelineView::setResult); `plots`: the plots'
    /// series, likewise (RunPlotData::build). Either is built here when null.
    void setRun(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<const sim::KernelIr> ir = nullptr,
                std::shared_ptr<TimelineRows> rows = {}, std::shared_ptr<const RunPlotData> plots = {});
    void showMessage(const QString& title, const QString& text);
    /// Stacks a second run (a what-if re-simulation) under the base run's lanes, on the same time axis: zoom
    /// and scroll in either view move both. A null run removes it.
    void showSecondRun(std::shared_ptr<const sim::SimResult> run, const QString& title);
    void clearSecondRun();
    /// The stacked run's pane (hidden while there is none).
    [[nodiscard]] SecondRunPane* secondRun() const { return m_second; }
    [[nodiscard]] TimelineView* timeline() const { return m_timeline; }
    [[nodiscard]] RunPlots* plots() const { return m_plots; }
    [[nodiscard]] QSplitter* splitter() const { return m_splitter; }
    [[nodiscard]] TimelineLegend* legend() const { return m_legend; }
    /// Lines the plots' areas up with the timeline's lanes (done on every resize; public for tests).
    void alignPlots();

    /// Find by operation or source line (Ctrl+F on the timeline): matches are highlighted, the rest dimmed,
    /// and Enter / Shift+Enter step through them.
    void find(const QString& query);
    void findNext(int direction);
    [[nodiscard]] const std::vector<std::uint32_t>& matches() const { return m_matches; }
    [[nodiscard]] QLineEdit* findField() const { return m_findField; }

signals:
    /// The user removed the stacked run (its Remove button).
    void secondRunRemoved();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildFindBar();
    void closeFindBar();
    void linkRange(TimelineView* from, TimelineView* to, qint64 t0, qint64 t1);
    void shareExtent();

    QStackedWidget* m_stack = nullptr;
    QWidget* m_findBar = nullptr;
    QLineEdit* m_findField = nullptr;
    QLabel* m_findCount = nullptr;
    std::vector<std::uint32_t> m_matches;
    std::size_t m_current = 0;
    std::shared_ptr<const sim::SimResult> m_result;
    PlaceholderPane* m_placeholder = nullptr;
    QSplitter* m_splitter = nullptr;
    TimelineView* m_timeline = nullptr;
    RunPlots* m_plots = nullptr;
    TimelineLegend* m_legend = nullptr;
    SecondRunPane* m_second = nullptr;
    bool m_linking = false;
};

} // namespace kl::views
