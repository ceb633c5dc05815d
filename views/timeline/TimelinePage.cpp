#include "timeline/TimelinePage.h"

#include "common/PlaceholderPane.h"
#include "plots/RunPlots.h"
#include "timeline/InstructionFinder.h"
#include "timeline/SecondRunPane.h"
#include "timeline/TimelineLegend.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QToolButton>

#include <limits>

#include <QEvent>
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
    auto* timelineBox = new QWidget;
    auto* timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    m_legend = new TimelineLegend(m_timeline);
    timelineLayout->addWidget(m_legend);
    timelineLayout->addWidget(buildFindBar());
    timelineLayout->addWidget(scroll, 1);
    // A second run (what-if) shares the timeline's part of the splitter, under the base run's lanes.
    m_second = new SecondRunPane;
    m_second->hide();
    timelineLayout->addWidget(m_second, 1);
    m_splitter->addWidget(timelineBox);
    m_splitter->addWidget(m_plots);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_splitter);
    connect(m_timeline, &TimelineView::visibleRangeChanged, m_plots, &RunPlots::setTimeRange);
    connect(m_timeline, &TimelineView::selectionRangeChanged, m_plots, &RunPlots::setSelectedRange);
    TimelineView* second = m_second->timeline();
    connect(m_timeline, &TimelineView::visibleRangeChanged, this,
            [this, second](qint64 t0, qint64 t1) { linkRange(m_timeline, second, t0, t1); });
    connect(second, &TimelineView::visibleRangeChanged, this,
            [this, second](qint64 t0, qint64 t1) { linkRange(second, m_timeline, t0, t1); });
    connect(m_second, &SecondRunPane::removeRequested, this, [this] {
        clearSecondRun();
        emit secondRunRemoved();
    });
    // Any change of either widget's geometry (a scroll bar appearing narrows the timeline) re-aligns them.
    m_timeline->installEventFilter(this);
    m_plots->installEventFilter(this);
}

bool TimelinePage::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize || event->type() == QEvent::Move || event->type() == QEvent::Show) {
        alignPlots();
    }
    return QWidget::eventFilter(watched, event);
}

void TimelinePage::alignPlots() {
    // The lanes span [kLabelWidth, width) of the timeline view; the plot areas must span the same pixels.
    const int left =
        m_timeline->mapTo(this, QPoint(TimelineView::kLabelWidth, 0)).x() - m_plots->mapTo(this, QPoint(0, 0)).x();
    const int right = (m_plots->mapTo(this, QPoint(0, 0)).x() + m_plots->width()) -
                      (m_timeline->mapTo(this, QPoint(0, 0)).x() + m_timeline->width());
    m_plots->setHorizontalMargins(std::max(0, left), std::max(0, right));
}

QWidget* TimelinePage::buildFindBar() {
    m_findBar = new QWidget;
    auto* layout = new QHBoxLayout(m_findBar);
    layout->setContentsMargins(4, 2, 4, 2);
    m_findField = new QLineEdit;
    m_findField->setPlaceholderText(
        tr("Find instructions: an operation (matmul, dma, activation) or source lines (41, 30-35)"));
    m_findField->setClearButtonEnabled(true);
    m_findCount = new QLabel;
    auto* previous = new QToolButton;
    previous->setText(QStringLiteral("▲"));
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton;
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next match (Enter)"));
    auto* close = new QToolButton;
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Esc)"));
    layout->addWidget(m_findField, 1);
    layout->addWidget(m_findCount);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(close);
    m_findBar->hide();
    connect(m_findField, &QLineEdit::textChanged, this, &TimelinePage::find);
    connect(m_findField, &QLineEdit::returnPressed, this,
            [this] { findNext(QApplication::keyboardModifiers() & Qt::ShiftModifier ? -1 : 1); });
    connect(previous, &QToolButton::clicked, this, [this] { findNext(-1); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(1); });
    connect(close, &QToolButton::clicked, this, &TimelinePage::closeFindBar);
    auto* open = new QShortcut(QKeySequence::Find, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(open, &QShortcut::activated, this, [this] {
        m_findBar->show();
        m_findField->setFocus();
        m_findField->selectAll();
    });
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), m_findField, nullptr, nullptr, Qt::WidgetShortcut);
    connect(escape, &QShortcut::activated, this, &TimelinePage::closeFindBar);
    return m_findBar;
}

void TimelinePage::closeFindBar() {
    m_findField->clear();
    m_findBar->hide();
    m_timeline->setFocus();
}

void TimelinePage::find(const QString& query) {
    m_matches = m_result ? findInstructions(*m_result, query.toStdString()) : std::vector<std::uint32_t>{};
    m_current = std::numeric_limits<std::size_t>::max();
    m_timeline->setHighlighted(m_matches);
    if (query.trimmed().isEmpty()) {
        m_findCount->clear();
    } else {
        m_findCount->setText(m_matches.empty() ? tr("no match")
                                               : tr("%n match(es)", nullptr, static_cast<int>(m_matches.size())));
    }
}

void TimelinePage::findNext(int direction) {
    if (m_matches.empty()) {
        return;
    }
    const auto n = m_matches.size();
    if (m_current >= n) { // nothing visited yet: start at the first (or, backwards, the last) match
        m_current = direction > 0 ? 0 : n - 1;
    } else {
        m_current = (m_current + (direction > 0 ? 1 : n - 1)) % n;
    }
    const std::uint32_t index = m_matches[m_current];
    m_timeline->selectInstruction(index);
    const auto& tl = m_result->timeline;
    const auto span = m_timeline->visibleEnd() - m_timeline->visibleStart();
    const auto centre = (tl.mainStartPs(index) + tl.endPs(index)) / 2;
    m_timeline->setVisibleRange(centre - span / 2, centre + span / 2);
    m_findCount->setText(tr("%1 of %2").arg(m_current + 1).arg(n));
}

void TimelinePage::setRun(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<const sim::KernelIr> ir,
                          std::shared_ptr<TimelineRows> rows, std::shared_ptr<const RunPlotData> plots) {
    m_result = result;
    m_matches.clear();
    m_plots->setResult(result, std::move(plots));
    clearSecondRun(); // a what-if of the previous run says nothing about this one
    m_timeline->setResult(result, std::move(rows));
    m_timeline->setIr(std::move(ir));
    m_legend->refresh();
    m_plots->setTimeRange(m_timeline->visibleStart(), m_timeline->visibleEnd());
    m_stack->setCurrentWidget(result ? static_cast<QWidget*>(m_splitter) : m_placeholder);
}

void TimelinePage::linkRange(TimelineView* from, TimelineView* to, qint64 t0, qint64 t1) {
    // One time axis: the other view follows (its own signal then comes back here and is ignored).
    if (m_linking || m_second->isHidden() || from == to) {
        return;
    }
    m_linking = true;
    to->setVisibleRange(t0, t1);
    m_linking = false;
}

void TimelinePage::shareExtent() {
    // Both views must accept the same ranges, so each scrolls to the later of the two runs' ends (alone: 0,
    // its own end).
    TimePs end = 0;
    if (!m_second->isHidden() && m_second->timeline()->rows() && m_timeline->rows()) {
        end = std::max(m_timeline->rows()->endTime(), m_second->timeline()->rows()->endTime());
    }
    m_timeline->setExtentPs(end);
    m_second->timeline()->setExtentPs(end);
}

void TimelinePage::showSecondRun(std::shared_ptr<const sim::SimResult> run, const QString& title) {
    if (!run) {
        clearSecondRun();
        return;
    }
    m_second->setRun(std::move(run), title);
    m_second->show();
    shareExtent();
    m_second->timeline()->setVisibleRange(m_timeline->visibleStart(), m_timeline->visibleEnd());
}

void TimelinePage::clearSecondRun() {
    m_second->hide();
    m_second->setRun(nullptr, QString());
    shareExtent();
}

void TimelinePage::showMessage(const QString& title, const QString& text) {
    m_placeholder->setTitle(title);
    m_placeholder->setExplanation(text);
    m_stack->setCurrentWidget(m_placeholder);
}

} // namespace kl::views
