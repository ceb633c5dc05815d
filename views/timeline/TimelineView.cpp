#include "timeline/TimelineView.h"

#include "timeline/TimeAxis.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace kl::views {

namespace {

constexpr double kMinMarkWidthPx = 3.0; // narrower runs fold into one mark (Tracy's level of detail)
constexpr double kZoomStep = 1.25;
constexpr double kPanStep = 0.15;
constexpr int kDragThresholdPx = 4;

QColor engineColour(std::uint16_t lane) {
    switch (lane) {
    case 0: return {86, 156, 214};  // LoadStationary
    case 1: return {38, 110, 190};  // MultiplyMoving
    case 2: return {230, 145, 56};  // Vector
    case 3: return {106, 176, 76};  // Scalar
    case 4: return {176, 102, 196}; // GpSimd
    default: return {120, 128, 140}; // DMA
    }
}

QColor spreadColour(std::uint32_t key) {
    // Golden-ratio hue steps keep neighbouring keys apart.
    const double hue = std::fmod(0.13 + key * 0.6180339887, 1.0);
    return QColor::fromHsvF(static_cast<float>(hue), 0.55f, 0.85f);
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(kRulerHeight + 3 * kRowHeight);
}

QSize TimelineView::sizeHint() const {
    const int rows = m_rows ? static_cast<int>(m_rows->rowCount()) : 8;
    return {900, kRulerHeight + rows * kRowHeight + 4};
}

void TimelineView::setResult(std::shared_ptr<const sim::SimResult> result) {
    m_result = std::move(result);
    m_rows = m_result ? std::make_unique<TimelineRows>(m_result) : nullptr;
    m_selected.reset();
    m_dependants.clear();
    m_highlighted.clear();
    m_range.reset();
    m_bands.clear();
    updateGeometry();
    fit();
}

double TimelineView::plotWidth() const { return std::max(1, width() - kLabelWidth); }

double TimelineView::xOf(TimePs t) const {
    return kLabelWidth + static_cast<double>(t - m_t0) * plotWidth() / static_cast<double>(m_t1 - m_t0);
}

TimePs TimelineView::timeAt(double x) const {
    return m_t0 + static_cast<TimePs>(std::llround((x - kLabelWidth) * static_cast<double>(m_t1 - m_t0) / plotWidth()));
}

int TimelineView::rowCentreY(std::size_t row) const {
    return kRulerHeight + static_cast<int>(row) * kRowHeight + kRowHeight / 2;
}

std::optional<std::size_t> TimelineView::rowAt(int y) const {
    if (!m_rows || y < kRulerHeight) {
        return std::nullopt;
    }
    const auto row = static_cast<std::size_t>((y - kRulerHeight) / kRowHeight);
    return row < m_rows->rowCount() ? std::optional(row) : std::nullopt;
}

void TimelineView::setVisibleRange(TimePs t0, TimePs t1) {
    // At least 1 ns wide, and never wholly outside [0, end]: the user cannot get lost.
    const TimePs end = m_rows ? std::max<TimePs>(m_rows->endTime(), 1000) : 1000;
    TimePs span = std::clamp<TimePs>(t1 - t0, 1000, end * 4);
    t0 = std::clamp<TimePs>(t0, -span / 2, end - span / 2);
    if (t0 == m_t0 && t0 + span == m_t1) {
        return;
    }
    m_t0 = t0;
    m_t1 = t0 + span;
    rebuildMarks();
    update();
    emit visibleRangeChanged(m_t0, m_t1);
}

void TimelineView::fit() {
    const TimePs end = m_rows ? std::max<TimePs>(m_rows->endTime(), 1000) : 1000;
    const TimePs margin = end / 50;
    setVisibleRange(-margin, end + margin);
}

void TimelineView::zoomBy(double factor, double anchorFraction) {
    const double span = static_cast<double>(m_t1 - m_t0);
    const double anchor = static_cast<double>(m_t0) + span * anchorFraction;
    const double newSpan = span / factor;
    const auto t0 = static_cast<TimePs>(std::llround(anchor - newSpan * anchorFraction));
    setVisibleRange(t0, t0 + static_cast<TimePs>(std::llround(newSpan)));
}

void TimelineView::panBy(double fractionOfWidth) {
    const auto delta = static_cast<TimePs>(std::llround(static_cast<double>(m_t1 - m_t0) * fractionOfWidth));
    setVisibleRange(m_t0 + delta, m_t1 + delta);
}

void TimelineView::setColourBy(ColourBy mode) {
    m_colourBy = mode;
    update();
}

void TimelineView::selectInstruction(std::optional<std::uint32_t> index) {
    if (!m_result || (index && *index >= m_result->timeline.size())) {
        index.reset();
    }
    m_selected = index;
    m_dependants.clear();
    if (index) {
        const auto& tl = m_result->timeline;
        for (std::uint32_t i = 0; i < tl.size(); ++i) {
            if (tl.waitOn(i) == *index) {
                m_dependants.push_back(i);
            }
        }
    }
    update();
    emit instructionSelected(index ? static_cast<qint64>(*index) : -1);
}

void TimelineView::setHighlighted(std::vector<std::uint32_t> indices) {
    m_highlighted.clear();
    if (!indices.empty() && m_result) {
        m_highlighted.assign(m_result->timeline.size(), false);
        for (std::uint32_t i : indices) {
            if (i < m_highlighted.size()) {
                m_highlighted[i] = true;
            }
        }
    }
    update();
}

void TimelineView::rebuildMarks() {
    m_marks.clear();
    if (m_rows) {
        m_rows->buildMarks(m_t0, m_t1, plotWidth(), kMinMarkWidthPx, m_marks);
    }
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    rebuildMarks();
}

QColor TimelineView::colourOf(std::uint32_t index) const {
    const auto& tl = m_result->timeline;
    switch (m_colourBy) {
    case ColourBy::Engine: return engineColour(std::min<std::uint16_t>(tl.lane(index), 5));
    case ColourBy::Operation: return spreadColour(static_cast<std::uint32_t>(tl.op(index)));
    case ColourBy::SourceLine: return spreadColour(tl.line(index));
    }
    return engineColour(0);
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!m_rows) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No simulated run yet"));
        return;
    }
    painter.setClipRect(QRect(kLabelWidth, 0, width() - kLabelWidth, height()));
    paintAnnotationBands(painter);
    paintMarks(painter);
    paintSelection(painter);
    paintDependencyArrows(painter);
    painter.setClipping(false);
    paintRuler(painter);
    paintAnnotationTags(painter);
    paintLabels(painter);
}

void TimelineView::setAnnotationBands(std::vector<AnnotationBand> bands) {
    m_bands = std::move(bands);
    update();
}

QRect TimelineView::bandTagRect(const AnnotationBand& band) const {
    const int x = static_cast<int>(std::clamp(xOf(band.startPs), double(kLabelWidth), double(width() - 20)));
    return {x, 1, 18, kRulerHeight - 10};
}

void TimelineView::paintAnnotationBands(QPainter& painter) {
    for (const AnnotationBand& band : m_bands) {
        const double x0 = xOf(band.startPs);
        const double x1 = std::max(x0 + 2, xOf(band.endPs));
        QColor fill = band.colour;
        fill.setAlpha(40);
        painter.fillRect(QRectF(x0, kRulerHeight, x1 - x0, height() - kRulerHeight), fill);
        painter.setPen(QPen(band.colour, 1, Qt::DashLine));
        painter.drawLine(QPointF(x0, kRulerHeight), QPointF(x0, height()));
        painter.drawLine(QPointF(x1, kRulerHeight), QPointF(x1, height()));
    }
}

void TimelineView::paintAnnotationTags(QPainter& painter) {
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    small.setBold(true);
    painter.setFont(small);
    for (const AnnotationBand& band : m_bands) {
        const QRect tag = bandTagRect(band);
        painter.setPen(Qt::NoPen);
        painter.setBrush(band.colour);
        painter.drawRoundedRect(tag, 3, 3);
        painter.setPen(Qt::white);
        painter.drawText(tag, Qt::AlignCenter, QString::number(band.number));
    }
    painter.setFont(font());
}

void TimelineView::paintRuler(QPainter& painter) {
    painter.fillRect(QRect(0, 0, width(), kRulerHeight), palette().window());
    painter.setPen(palette().color(QPalette::WindowText));
    const TimeTicks ticks = computeTimeTicks(m_t0, m_t1, plotWidth(), 90);
    for (TimePs t : ticks.ticks) {
        const int x = static_cast<int>(xOf(t));
        painter.drawLine(x, kRulerHeight - 6, x, kRulerHeight);
        painter.drawText(x + 3, kRulerHeight - 8, QString::fromStdString(formatTime(t, ticks.step)));
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
}

void TimelineView::paintLabels(QPainter& painter) {
    painter.fillRect(QRect(0, kRulerHeight, kLabelWidth, height() - kRulerHeight), palette().window());
    painter.setPen(palette().color(QPalette::WindowText));
    for (std::size_t row = 0; row < m_rows->rowCount(); ++row) {
        const QRect box(6, rowCentreY(row) - kRowHeight / 2, kLabelWidth - 8, kRowHeight);
        QString name = QString::fromStdString(m_rows->rowName(row));
        const auto kind = m_rows->rowKind(row);
        if (kind == TimelineRows::Kind::DmaSummary) {
            name = QStringLiteral("\u25B8 ") + name; // collapsed group: click to expand
        } else if (kind == TimelineRows::Kind::DmaQueue && row > 0 &&
                   m_rows->rowKind(row - 1) != TimelineRows::Kind::DmaQueue) {
            name = QStringLiteral("\u25BE ") + name; // first queue of an expanded group: click to collapse
        }
        painter.drawText(box, Qt::AlignVCenter | Qt::AlignLeft, name);
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, height());
}

void TimelineView::paintMarks(QPainter& painter) {
    const bool dimming = !m_highlighted.empty();
    const QColor summaryColour = engineColour(5);
    for (const TimelineMark& mark : m_marks) {
        const int top = rowCentreY(mark.row) - kRowHeight / 2 + 3;
        const QRectF box(kLabelWidth + mark.x0, top, std::max(1.0, mark.x1 - mark.x0), kRowHeight - 6);
        QColor colour = mark.first == kNoInstruction ? summaryColour : colourOf(mark.first);
        if (mark.count > 1) {
            // A folded run mixes busy and idle time narrower than a pixel: its opacity follows how busy it
            // is, so a mostly idle lane does not look busy at full zoom-out.
            colour.setAlpha(40 + static_cast<int>(200.0F * mark.busy));
        }
        if (dimming && mark.first != kNoInstruction) {
            // A folded run is judged by its first instruction: exact enough at a few pixels wide.
            if (!m_highlighted[mark.first]) {
                colour.setAlpha(50);
            }
        }
        painter.fillRect(box, colour);
    }
}

void TimelineView::paintSelection(QPainter& painter) {
    if (m_range) {
        const double x0 = xOf(m_range->first);
        const double x1 = xOf(m_range->second);
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(50);
        painter.fillRect(QRectF(x0, kRulerHeight, x1 - x0, height() - kRulerHeight), fill);
    }
    if (!m_selected) {
        return;
    }
    const auto row = m_rows->rowOf(*m_selected);
    if (!row) {
        return;
    }
    const auto& tl = m_result->timeline;
    const double x0 = xOf(tl.mainStartPs(*m_selected));
    const double x1 = std::max(x0 + 3, xOf(tl.endPs(*m_selected)));
    painter.setPen(QPen(palette().color(QPalette::Text), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(x0 - 1, rowCentreY(*row) - kRowHeight / 2 + 1, x1 - x0 + 2, kRowHeight - 2));
}

void TimelineView::paintDependencyArrows(QPainter& painter) {
    if (!m_selected) {
        return;
    }
    const auto& tl = m_result->timeline;
    auto arrow = [&](std::uint32_t from, std::uint32_t to, const QColor& colour) {
        const auto rowFrom = m_rows->rowOf(from);
        const auto rowTo = m_rows->rowOf(to);
        if (!rowFrom || !rowTo) {
            return;
        }
        const QPointF a(xOf(tl.endPs(from)), rowCentreY(*rowFrom));
        const QPointF b(xOf(tl.mainStartPs(to)), rowCentreY(*rowTo));
        painter.setPen(QPen(colour, 1.5));
        painter.drawLine(a, b);
        const QPointF dir = (b - a) / std::max(1.0, std::hypot(b.x() - a.x(), b.y() - a.y()));
        const QPointF normal(-dir.y(), dir.x());
        QPainterPath head;
        head.moveTo(b);
        head.lineTo(b - dir * 8 + normal * 4);
        head.lineTo(b - dir * 8 - normal * 4);
        head.closeSubpath();
        painter.fillPath(head, colour);
    };
    const std::uint32_t waitOn = tl.waitOn(*m_selected);
    if (waitOn != kNoInstruction && waitOn < tl.size()) {
        arrow(waitOn, *m_selected, QColor(220, 60, 60));
    }
    constexpr std::size_t kMaxArrows = 64; // beyond this the picture is noise; the inspector lists them all
    for (std::size_t k = 0; k < std::min(kMaxArrows, m_dependants.size()); ++k) {
        arrow(*m_selected, m_dependants[k], QColor(40, 150, 90));
    }
}

std::optional<std::uint32_t> TimelineView::instructionAt(const QPoint& pos) const {
    if (!m_rows || pos.x() < kLabelWidth) {
        return std::nullopt;
    }
    const auto row = rowAt(pos.y());
    if (!row) {
        return std::nullopt;
    }
    const TimePs slack = timeAt(pos.x() + kMinMarkWidthPx) - timeAt(pos.x());
    return m_rows->hitTest(*row, timeAt(pos.x()), slack);
}

QString TimelineView::tooltipFor(std::uint32_t index) const {
    const auto& tl = m_result->timeline;
    const auto& file = tl.file(index) < m_result->files.size() ? m_result->files[tl.file(index)] : std::string();
    return QStringLiteral("<b>#%1 %2</b> on %3<br>%4 \u2192 %5 (%6)<br>%7:%8<br>waited: %9")
        .arg(index)
        .arg(QString::fromLatin1(sim::opName(tl.op(index)).data()))
        .arg(QString::fromStdString(sim::laneName(tl.lane(index))))
        .arg(QString::fromStdString(formatTime(tl.mainStartPs(index))))
        .arg(QString::fromStdString(formatTime(tl.endPs(index))))
        .arg(QString::fromStdString(formatTime(tl.endPs(index) - tl.mainStartPs(index))))
        .arg(QString::fromStdString(file))
        .arg(tl.line(index))
        .arg(QString::fromLatin1(sim::waitCauseName(tl.cause(index)).data()));
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto index = instructionAt(help->pos())) {
            QToolTip::showText(help->globalPos(), tooltipFor(*index), this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_W: zoomBy(kZoomStep); break;
    case Qt::Key_S: zoomBy(1.0 / kZoomStep); break;
    case Qt::Key_A: panBy(-kPanStep); break;
    case Qt::Key_D: panBy(kPanStep); break;
    case Qt::Key_F: fit(); break;
    case Qt::Key_Escape:
        m_range.reset();
        selectInstruction(std::nullopt);
        break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier) {
        panBy(-steps * kPanStep);
    } else {
        const double anchor = std::clamp((event->position().x() - kLabelWidth) / plotWidth(), 0.0, 1.0);
        zoomBy(std::pow(kZoomStep, steps), anchor);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && event->pos().y() < kRulerHeight) {
        for (const AnnotationBand& band : m_bands) {
            if (bandTagRect(band).contains(event->pos())) {
                emit annotationClicked(band.id);
                return;
            }
        }
    }
    m_pressPos = event->pos();
    m_pressT0 = m_t0;
    m_pressT1 = m_t1;
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && event->pos().y() < kRulerHeight)) {
        m_drag = Drag::Pan;
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Select;
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (m_drag == Drag::Pan) {
        const double dx = event->pos().x() - m_pressPos.x();
        const auto delta = static_cast<TimePs>(std::llround(dx * static_cast<double>(m_pressT1 - m_pressT0) / plotWidth()));
        setVisibleRange(m_pressT0 - delta, m_pressT1 - delta);
    } else if (m_drag == Drag::Select && std::abs(event->pos().x() - m_pressPos.x()) >= kDragThresholdPx) {
        const TimePs a = timeAt(m_pressPos.x());
        const TimePs b = timeAt(event->pos().x());
        m_range = std::pair(std::min(a, b), std::max(a, b));
        update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = std::exchange(m_drag, Drag::None);
    if (drag != Drag::Select || event->button() != Qt::LeftButton) {
        return;
    }
    if (std::abs(event->pos().x() - m_pressPos.x()) >= kDragThresholdPx && m_range) {
        emit rangeSelected(m_range->first, m_range->second);
        return;
    }
    if (event->pos().x() < kLabelWidth) {
        const auto row = rowAt(event->pos().y());
        if (row && m_rows && (m_rows->rowKind(*row) == TimelineRows::Kind::DmaQueue ||
                              m_rows->rowKind(*row) == TimelineRows::Kind::DmaSummary)) {
            m_rows->setDmaExpanded(!m_rows->dmaExpanded());
            updateGeometry();
            rebuildMarks();
            update();
        }
        return;
    }
    m_range.reset();
    selectInstruction(instructionAt(event->pos()));
}

} // namespace kl::views
