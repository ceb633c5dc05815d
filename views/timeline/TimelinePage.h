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

    /// `rows`: the timeline rows of `result`, built off the GUI thread (TimelineView::setResult).
    void setRun(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<TimelineRows> rows = {});
    void showMessage(const QString& title, const QString& text);
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

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildFindBar();
    void closeFindBar();

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
};

} // namespace kl::views
