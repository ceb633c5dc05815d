#pragma once

#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <QWidget>

#include <memory>

class QSplitter;
class QStackedWidget;

namespace kl::views {

class PlaceholderPane;
class RunPlots;
class TimelineView;

/// The centre-bottom page: the timeline over its plots on one time axis. Until a run arrives it says what
/// will appear (or what is happening: tracing, simulating, failed).
class TimelinePage : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePage(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const sim::SimResult> result);
    void showMessage(const QString& title, const QString& text);
    [[nodiscard]] TimelineView* timeline() const { return m_timeline; }
    [[nodiscard]] RunPlots* plots() const { return m_plots; }
    [[nodiscard]] QSplitter* splitter() const { return m_splitter; }

private:
    QStackedWidget* m_stack = nullptr;
    PlaceholderPane* m_placeholder = nullptr;
    QSplitter* m_splitter = nullptr;
    TimelineView* m_timeline = nullptr;
    RunPlots* m_plots = nullptr;
};

} // namespace kl::views
