#include "timeline/SecondRunPane.h"

#include "timeline/TimelineView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace kl::views {

SecondRunPane::SecondRunPane(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("secondRunPane"));
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("secondRunTitle"));
    m_title->setTextFormat(Qt::PlainText);
    // One line, cut at the right if need be (the whole title is the tooltip): showing the lanes must not raise the
    // window's minimum height past a 800 px screen.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_remove = new QToolButton;
    m_remove->setObjectName(QStringLiteral("removeSecondRun"));
    m_remove->setText(tr("Remove"));
    m_remove->setToolTip(tr("Remove this run's lanes from the timeline (the what-if figures stay)"));
    connect(m_remove, &QToolButton::clicked, this, &SecondRunPane::removeRequested);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 2);
    header->addWidget(m_title, 1);
    header->addWidget(m_remove);

    m_timeline = new TimelineView;
    m_timeline->setObjectName(QStringLiteral("secondTimelineView"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_timeline);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumHeight(TimelineView::kRulerHeight + TimelineView::kRowHeight);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(scroll, 1);
}

void SecondRunPane::setRun(std::shared_ptr<const sim::SimResult> run, const QString& title) {
    m_title->setText(title);
    m_title->setToolTip(title);
    m_timeline->setResult(std::move(run));
}

QString SecondRunPane::title() const {
    return m_title->text();
}

} // namespace kl::views
