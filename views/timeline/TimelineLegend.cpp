#include "timeline/TimelineLegend.h"

#include "common/Contrast.h"
#include "timeline/TimelineColours.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <map>

namespace kl::views {

namespace {

constexpr int kSwatch = 10;
constexpr int kGap = 14;

} // namespace

TimelineLegend::TimelineLegend(TimelineView* view, QWidget* parent) : QWidget(parent), m_view(view) {
    setObjectName(QStringLiteral("timelineLegend"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    auto* label = new QLabel(tr("Colour by"));
    m_chooser = new QComboBox;
    m_chooser->addItem(tr("Engine"), int(TimelineView::ColourBy::Engine));
    m_chooser->addItem(tr("Operation"), int(TimelineView::ColourBy::Operation));
    m_chooser->addItem(tr("Source line"), int(TimelineView::ColourBy::SourceLine));
    m_chooser->setToolTip(tr("What the colours of the timeline mean (also View > Colour by)"));
    label->setBuddy(m_chooser);
    layout->addWidget(label);
    layout->addWidget(m_chooser);
    layout->addStretch(1);
    connect(m_chooser, &QComboBox::activated, this, [this](int index) {
        m_view->setColourBy(static_cast<TimelineView::ColourBy>(m_chooser->itemData(index).toInt()));
    });
    connect(m_view, &TimelineView::colourByChanged, this, [this](TimelineView::ColourBy mode) {
        m_chooser->setCurrentIndex(m_chooser->findData(int(mode)));
        refresh();
    });
    connect(m_view, &TimelineView::instructionSelected, this, [this] { refreshArrows(); });
    refresh();
}

QSize TimelineLegend::sizeHint() const {
    return {600, m_chooser->sizeHint().height() + 4};
}

void TimelineLegend::refresh() {
    m_entries.clear();
    m_more.clear();
    const auto mode = m_view->colourBy();
    if (mode == TimelineView::ColourBy::Engine) {
        for (int slot = 0; slot < TimelineColours::kStyleCount; ++slot) {
            m_entries.push_back(
                {TimelineColours::slotLabel(slot), TimelineColours::slotColour(slot, isDarkPalette(palette()))});
        }
        if (m_view->rows() != nullptr && !m_view->rows()->result().spills.transfers.empty()) {
            for (const bool reload : {false, true}) {
                m_entries.push_back(
                    {TimelineColours::spillLabel(reload), TimelineColours::spillColour(reload, palette())});
            }
        }
    } else if (m_view->rows() != nullptr) {
        collectKeys(mode == TimelineView::ColourBy::Operation);
    }
    refreshArrows();
}

void TimelineLegend::refreshArrows() {
    m_arrows.clear();
    using Kind = TimelineColours::FlowKind;
    for (const Kind kind : {Kind::WaitedOn, Kind::Producer, Kind::Dependant}) {
        const auto& flows = m_view->flowArrows();
        const bool shown = std::any_of(flows.begin(), flows.end(), [kind](const FlowArrow& flow) {
            return flow.kind == kind && flow.from != flow.to; // a wait with no producer draws only its label
        });
        if (shown) {
            m_arrows.push_back({TimelineColours::flowLabel(kind), TimelineColours::flowColour(kind, palette())});
        }
    }
    update();
}

void TimelineLegend::collectKeys(bool byOperation) {
    // The busiest keys first: what most of the picture is painted with.
    const auto& result = m_view->rows()->result();
    const auto& tl = result.timeline;
    std::map<std::uint32_t, std::pair<sim::TimePs, std::uint32_t>> busy; // key -> (busy time, an instruction)
    for (std::uint32_t i = 0; i < tl.size(); ++i) {
        const std::uint32_t key = byOperation ? static_cast<std::uint32_t>(tl.op(i)) : tl.line(i);
        auto& entry = busy.try_emplace(key, sim::TimePs{0}, i).first->second;
        entry.first += tl.endPs(i) - tl.mainStartPs(i);
    }
    std::vector<std::pair<sim::TimePs, std::uint32_t>> order; // (busy, instruction), busiest first
    sim::TimePs total = 0;
    for (const auto& [key, value] : busy) {
        order.push_back(value);
        total += value.first;
    }
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; k < order.size() && k < kMaxEntries; ++k) {
        const std::uint32_t i = order[k].second;
        const QString name = byOperation ? QString::fromLatin1(sim::opName(tl.op(i)).data())
                                         : (tl.line(i) > 0 ? tr("line %1").arg(tl.line(i)) : tr("no line"));
        const double share = total > 0 ? 100.0 * static_cast<double>(order[k].first) / static_cast<double>(total) : 0;
        m_entries.push_back({QStringLiteral("%1 (%2%)").arg(name).arg(share, 0, 'f', 0), m_view->colourOf(i)});
    }
    if (order.size() > static_cast<std::size_t>(kMaxEntries)) {
        m_more = tr("+ %n more", nullptr, static_cast<int>(order.size()) - kMaxEntries);
    }
}

void TimelineLegend::paintEvent(QPaintEvent* event) {
    QWidget::paintEvent(event);
    QPainter painter(this);
    const QFontMetrics metrics(font());
    int x = m_chooser->geometry().right() + kGap;
    const int cy = height() / 2;
    const int keysEnd = paintArrows(painter, cy);
    for (const Entry& entry : m_entries) {
        const int w = kSwatch + 4 + metrics.horizontalAdvance(entry.label);
        if (x + w > keysEnd - 4) {
            painter.setPen(palette().color(QPalette::PlaceholderText));
            painter.drawText(QPoint(x, cy + metrics.ascent() / 2 - 1), QStringLiteral("\u2026"));
            return;
        }
        painter.fillRect(QRect(x, cy - kSwatch / 2, kSwatch, kSwatch), entry.colour);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QPoint(x + kSwatch + 4, cy + metrics.ascent() / 2 - 1), entry.label);
        x += w + kGap;
    }
    if (!m_more.isEmpty() && x + metrics.horizontalAdvance(m_more) < keysEnd) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(QPoint(x, cy + metrics.ascent() / 2 - 1), m_more);
    }
}

int TimelineLegend::paintArrows(QPainter& painter, int cy) {
    constexpr int kArrow = 18;
    const QFontMetrics metrics(font());
    int x = width() - 6;
    for (auto it = m_arrows.crbegin(); it != m_arrows.crend(); ++it) {
        const int w = kArrow + 4 + metrics.horizontalAdvance(it->label);
        if (x - w < m_chooser->geometry().right() + kGap) {
            break; // too narrow: the keys of the colours matter more
        }
        x -= w;
        painter.setPen(QPen(it->colour, 1.6));
        painter.drawLine(QPointF(x, cy), QPointF(x + kArrow - 5, cy));
        QPainterPath head;
        head.moveTo(x + kArrow, cy);
        head.lineTo(x + kArrow - 6, cy - 3.5);
        head.lineTo(x + kArrow - 6, cy + 3.5);
        head.closeSubpath();
        painter.fillPath(head, it->colour);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QPoint(x + kArrow + 4, cy + metrics.ascent() / 2 - 1), it->label);
        x -= kGap;
    }
    return x;
}

void TimelineLegend::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        refresh();
    }
}

} // namespace kl::views
