#include "compare/CompareView.h"

#include "compare/ComparisonModel.h"
#include "compare/RunComparison.h"
#include "common/Contrast.h"
#include "ir/KernelIr.h"
#include "source/SourcePane.h"
#include "timeline/TimelineView.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace kl::views {

namespace {

/// TimelineData is moving from public arrays to packed storage behind accessors; these helpers read and
/// extend either form.
template <typename Timeline> sim::TimePs endOf(const Timeline& tl, std::size_t i) {
    if constexpr (requires { tl.endPs(i); }) {
        return tl.endPs(i);
    } else {
        return tl.endPs[i];
    }
}

template <typename Timeline> void appendEndMark(Timeline& tl, sim::TimePs end) {
    if constexpr (requires { typename Timeline::Record; }) {
        typename Timeline::Record mark;
        mark.irId = static_cast<std::uint32_t>(tl.size());
        mark.mainStartPs = end;
        mark.endPs = end;
        mark.lane = sim::LaneId(sim::Lane::GpSimd).value();
        mark.op = sim::Op::Unknown;
        tl.append(mark);
    } else {
        tl.irId.push_back(static_cast<std::uint32_t>(tl.size()));
        tl.startPs.push_back(end);
        tl.endPs.push_back(end);
        tl.mainStartPs.push_back(end);
        tl.lane.push_back(sim::LaneId(sim::Lane::GpSimd).value());
        tl.op.push_back(sim::Op::Unknown);
        tl.file.push_back(sim::kNoIndex);
        tl.line.push_back(0);
        tl.cause.push_back(sim::WaitCause::None);
        tl.waitOn.push_back(sim::kNoIndex);
        tl.stallPs.push_back(0);
    }
}

sim::TimePs lastEnd(const sim::SimResult& r) {
    sim::TimePs end = 0;
    for (std::size_t i = 0; i < r.timeline.size(); ++i) {
        end = std::max(end, endOf(r.timeline, i));
    }
    return end;
}

/// A copy of `run` whose timeline reaches `end`: TimelineView keeps its range within [0, 4 x its run's end],
/// so the shorter run gets a zero-length end mark (an unknown op on the GpSimdE row, which no kernel in the
/// comparison uses at that time) to share the longer run's time scale. Figures come from the original runs.
std::shared_ptr<const sim::SimResult> reachingTo(const std::shared_ptr<const sim::SimResult>& run, sim::TimePs end) {
    if (lastEnd(*run) >= end) {
        return run;
    }
    auto padded = std::make_shared<sim::SimResult>(*run);
    appendEndMark(padded->timeline, end);
    return padded;
}

QLabel* sideLabel(const QString& tag, const QColor& colour) {
    auto* label = new QLabel;
    label->setTextFormat(Qt::RichText);
    label->setProperty("tag", tag);
    label->setStyleSheet(QStringLiteral("QLabel { border-left: 4px solid %1; padding-left: 6px; }").arg(colour.name()));
    return label;
}

QString durationText(sim::TimePs ps) {
    const double us = static_cast<double>(ps) / 1e6;
    return us >= 1000 ? QStringLiteral("%1 ms").arg(us / 1000.0, 0, 'f', 2)
                      : QStringLiteral("%1 us").arg(us, 0, 'f', 1);
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("compareView"));
    m_headline = new QLabel(tr("Compare two runs: pick Teaching > Compare With... or start a lesson."));
    m_headline->setWordWrap(true);
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    big.setBold(true);
    m_headline->setFont(big);
    m_emptyHint = new QLabel(tr("Both runs then share one time axis (zoom either, the other follows), with their "
                                "figures side by side and both NKI sources."));
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setForegroundRole(QPalette::PlaceholderText);
    m_labelA = sideLabel(QStringLiteral("A"), QColor(0x2f, 0x6f, 0xb5));
    m_labelB = sideLabel(QStringLiteral("B"), QColor(0xc2, 0x6b, 0x1a));
    m_note = new QLabel;
    m_note->setWordWrap(true);
    styleNote();
    m_note->hide();
    m_timelineA = new TimelineView;
    m_timelineB = new TimelineView;
    m_timelineA->setObjectName(QStringLiteral("compareTimelineA"));
    m_timelineB->setObjectName(QStringLiteral("compareTimelineB"));

    auto* timelines = new QWidget;
    auto* tl = new QVBoxLayout(timelines);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(2);
    tl->addWidget(m_labelA);
    tl->addWidget(m_timelineA, 1);
    tl->addWidget(m_labelB);
    tl->addWidget(m_timelineB, 1);

    m_model = new ComparisonModel(this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(ComparisonModel::Figure, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    m_sourceA = new SourcePane(SourcePane::Language::Python, tr("NKI source of A"));
    m_sourceB = new SourcePane(SourcePane::Language::Python, tr("NKI source of B"));
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_table);
    bottom->addWidget(m_sourceA);
    bottom->addWidget(m_sourceB);
    m_cuda = new SourcePane(SourcePane::Language::Cuda, tr("CUDA source"));
    bottom->addWidget(m_cuda);
    m_cuda->hide();
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setStretchFactor(2, 2);

    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(timelines);
    m_splitter->addWidget(bottom);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_emptyHint);
    layout->addWidget(m_note);
    layout->addWidget(m_splitter, 1);
    layout->addStretch(0); // holds the empty state's lines at the top
    showPanes(false);

    connect(m_timelineA, &TimelineView::visibleRangeChanged, this, [this] { follow(m_timelineA, m_timelineB); });
    connect(m_timelineB, &TimelineView::visibleRangeChanged, this, [this] { follow(m_timelineB, m_timelineA); });
}

void CompareView::showPanes(bool shown) {
    const bool appeared = shown && m_splitter->isHidden();
    m_splitter->setVisible(shown);
    m_emptyHint->setVisible(!shown);
    if (appeared) {
        emit runsShown();
    }
}

bool CompareView::isShowingRuns() const {
    return !m_splitter->isHidden();
}

void CompareView::follow(TimelineView* leader, TimelineView* follower) {
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    follower->setVisibleRange(leader->visibleStart(), leader->visibleEnd());
    m_syncing = false;
}

void CompareView::setRuns(const CompareSide& a, const CompareSide& b) {
    setNote({}, 0, 0); // a lesson's note belongs to the comparison it was written for
    m_single = false;
    m_labelB->show();
    m_timelineB->show();
    m_sourceB->show();
    m_cuda->hide();
    for (int column : {ComparisonModel::B, ComparisonModel::Delta, ComparisonModel::DeltaPct}) {
        m_table->setColumnHidden(column, false);
    }
    m_end = std::max(lastEnd(*a.result), lastEnd(*b.result));
    m_syncing = true;
    m_timelineA->setResult(reachingTo(a.result, m_end));
    m_timelineB->setResult(reachingTo(b.result, m_end));
    m_syncing = false;
    m_model->setComparison(core::RunComparison(*a.result, *b.result, a.label.toStdString(), b.label.toStdString()));
    const auto& sa = a.result->summary;
    const auto& sb = b.result->summary;
    m_labelA->setText(tr("<b>A</b> %1 &nbsp;·&nbsp; %2 &nbsp;·&nbsp; exposed DMA %3")
                          .arg(a.label.toHtmlEscaped(), durationText(sa.totalPs), durationText(sa.dmaExposedPs)));
    m_labelB->setText(tr("<b>B</b> %1 &nbsp;·&nbsp; %2 &nbsp;·&nbsp; exposed DMA %3")
                          .arg(b.label.toHtmlEscaped(), durationText(sb.totalPs), durationText(sb.dmaExposedPs)));
    const double speedup = m_model->comparison().speedup();
    if (speedup >= 1.0) {
        m_headline->setText(tr("B is %1x faster than A (%2 → %3)")
                                .arg(speedup, 0, 'f', 2)
                                .arg(durationText(sa.totalPs), durationText(sb.totalPs)));
    } else if (speedup > 0) {
        m_headline->setText(tr("B is %1x slower than A (%2 → %3)")
                                .arg(1.0 / speedup, 0, 'f', 2)
                                .arg(durationText(sa.totalPs), durationText(sb.totalPs)));
    }
    m_sourceA->showSource(a.sourceName, a.sourceText);
    m_sourceB->showSource(b.sourceName, b.sourceText);
    m_sourceA->setEditable(false);
    m_sourceB->setEditable(false);
    showPanes(true);
    setTimeRange(0, m_end);
}

void CompareView::setSingleRun(const CompareSide& a, const QString& cudaName, const QString& cudaText) {
    setNote({}, 0, 0);
    m_single = true;
    m_end = lastEnd(*a.result);
    m_syncing = true;
    m_timelineA->setResult(a.result);
    m_timelineB->setResult(a.result);
    m_syncing = false;
    m_labelB->hide();
    m_timelineB->hide();
    m_model->setComparison(core::RunComparison(*a.result, *a.result, a.label.toStdString(), a.label.toStdString()));
    for (int column : {ComparisonModel::B, ComparisonModel::Delta, ComparisonModel::DeltaPct}) {
        m_table->setColumnHidden(column, true);
    }
    const auto& s = a.result->summary;
    m_labelA->setText(tr("<b>A</b> %1 &nbsp;·&nbsp; %2 &nbsp;·&nbsp; exposed DMA %3")
                          .arg(a.label.toHtmlEscaped(), durationText(s.totalPs), durationText(s.dmaExposedPs)));
    m_headline->setText(tr("%1: %2").arg(a.label, durationText(s.totalPs)));
    m_sourceA->showSource(a.sourceName, a.sourceText);
    m_sourceB->hide();
    m_cuda->show();
    m_cuda->showSource(cudaName, cudaText);
    m_sourceA->setEditable(false);
    m_cuda->setEditable(false);
    showPanes(true);
    setTimeRange(0, m_end);
}

void CompareView::highlightCudaLines(int first, int last) {
    if (m_single) {
        m_cuda->highlightLines(first, last);
    }
}

void CompareView::clear(const QString& message) {
    setNote({}, 0, 0);
    m_headline->setText(message);
    showPanes(false);
    m_emptyHint->hide(); // the message (progress or an error) says all there is
}

void CompareView::setTimeRange(sim::TimePs t0, sim::TimePs t1) {
    m_timelineA->setVisibleRange(t0, t1); // B follows through visibleRangeChanged
    follow(m_timelineA, m_timelineB);
}

void CompareView::highlightNkiLines(int first, int last) {
    m_sourceA->highlightLines(first, last);
    if (!m_single && m_sourceB->fileName() == m_sourceA->fileName() && m_sourceB->text() == m_sourceA->text()) {
        m_sourceB->highlightLines(first, last);
    }
}

bool CompareView::hasNote() const {
    return !m_note->isHidden();
}

void CompareView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && m_note != nullptr) {
        styleNote();
    }
    QWidget::changeEvent(event);
}

void CompareView::styleNote() {
    const bool dark = isDarkPalette(palette());
    m_note->setStyleSheet(dark ? QStringLiteral("QLabel { background: #4a3c00; color: #ffe8a3; border: 1px solid "
                                                "#8a7420; padding: 4px; }")
                               : QStringLiteral("QLabel { background: #fff4c2; color: #3b3000; border: 1px solid "
                                                "#e0c860; padding: 4px; }"));
}

void CompareView::setNote(const QString& text, sim::TimePs t0, sim::TimePs t1) {
    if (text.isEmpty()) {
        m_note->hide();
        m_timelineA->setAnnotationBands({});
        return;
    }
    m_note->setText(tr("<b>Note:</b> %1").arg(text.toHtmlEscaped()));
    m_note->show();
    AnnotationBand band;
    band.startPs = t0;
    band.endPs = t1;
    band.number = 1;
    band.colour = QColor(0xe0, 0xb0, 0x20);
    m_timelineA->setAnnotationBands({band});
}

} // namespace kl::views
