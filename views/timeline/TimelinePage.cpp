#include "timeline/TimelinePage.h"

#include "common/PlaceholderPane.h"
#include "plots/RunPlots.h"
#include "timeline/TimelineView.h"

#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace kl::views {

TimelinePage::TimelinePage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);
    m_placeholder = new PlaceholderPane(
        tr("Timeline"), tr("Engine lanes (TensorE, VectorE, ScalarE, GpSimdE) and DMA queues of the simulated run, "
                           "with SBUF/PSUM occupancy, DMA bandwidth and overlap under them, appear here once a "
                           "task has been simulated. Open a task folder with Ctrl+O."));
    m_timeline = new TimelineView;
    m_timeline->setObjectName(QStringLiteral("timelineView"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_timeline);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_plots = new RunPlots;
    m_plots->setLeftMargin(TimelineView::kLabelWidth);
    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->setObjectName(QStringLiteral("timelineSplitter"));
    m_splitter->addWidget(scroll);
    m_splitter->addWidget(m_plots);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_splitter);
    connect(m_timeline, &TimelineView::visibleRangeChanged, m_plots, &RunPlots::setTimeRange);
}

void TimelinePage::setRun(std::shared_ptr<const sim::SimResult> result) {
    m_plots->setResult(result);
    m_timeline->setResult(result);
    m_plots->setTimeRange(m_timeline->visibleStart(), m_timeline->visibleEnd());
    m_stack->setCurrentWidget(result ? static_cast<QWidget*>(m_splitter) : m_placeholder);
}

void TimelinePage::showMessage(const QString& title, const QString& text) {
    m_placeholder->setTitle(title);
    m_placeholder->setExplanation(text);
    m_stack->setCurrentWidget(m_placeholder);
}

} // namespace kl::views
