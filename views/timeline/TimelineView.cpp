#include "timeline/TimelineView.h"

#include "common/Contrast.h"
#include "common/QtText.h"
#include "timeline/InstructionProducers.h"
#include "timeline/SpillText.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineColours.h"

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

constexpr std::size_t kMaxDependantArrows = 64; // beyond this the picture is noise; the inspector lists them

QString causeText(sim::WaitCause cause) {
    using C = sim::WaitCause;
    switch (cause) {
    case C::Dependency: return TimelineView::tr("waited on its input");
    case C::Engine: return TimelineView::tr("engine busy");
    case C::DmaQueue: return TimelineView::tr("DMA queue busy");
    case C::SbufCapacity: return TimelineView::tr("no room in SBUF");
    case C::PsumCapacity: return TimelineView::tr("no room in PSUM");
    case C::Spill: return TimelineView::tr("waited for a spill");
    default: return QString::fromLatin1(sim::waitCauseName(cause).data());
    }
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

void TimelineView::setIr(std::shared_ptr<const sim::KernelIr> ir) {
    m_ir = std::move(ir);
    buildFlows();
    update();
}

void TimelineView::setResult(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<TimelineRows> rows) {
    m_ir.reset(); // the IR belongs to the previous run until setIr() says otherwise
    m_result = std::move(result);
    if (rows && m_result && &rows->result() == m_result.get()) {
        m_rows = std::move(rows);
    } else {
        m_rows = m_result ? std::make_shared<TimelineRows>(m_result) : nullptr;
    }
    if (m_rows && m_dmaExpandedChoice) {
        m_rows->setDmaExpanded(*m_dmaExpandedChoice);
    }
    m_selected.reset();
    m_selectedSpill.reset();
    m_flows.clear();
    m_highlighted.clear();
    setRange(std::nullopt);
    m_bands.clear();
    updateGeometry();
    fit();
}

double TimelineView::plotWidth() const {
    return std::max(1, width() - kLabelWidth);
}

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

TimePs TimelineView::extentPs() const {
    return std::max<TimePs>({m_rows ? m_rows->endTime() : 0, m_extentPs, 1000});
}

void TimelineView::setExtentPs(TimePs endPs) {
    m_extentPs = endPs;
}

void TimelineView::setVisibleRange(TimePs t0, TimePs t1) {
    // At least 1 ns wide, and never wholly outside [0, end]: the user cannot get lost.
    const TimePs end = extentPs();
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
    const TimePs end = extentPs();
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
    if (mode == m_colourBy) {
        return;
    }
    m_colourBy = mode;
    update();
    emit colourByChanged(mode);
}

void TimelineView::setRange(std::optional<std::pair<TimePs, TimePs>> range) {
    if (range == m_range) {
        return;
    }
    m_range = range;
    update();
    emit selectionRangeChanged(range ? range->first : 0, range ? range->second : 0);
}

void TimelineView::selectInstruction(std::optional<std::uint32_t> index) {
    if (!m_result || (index && *index >= m_result->timeline.size())) {
        index.reset();
    }
    m_selected = index;
    m_selectedSpill.reset();
    buildFlows();
    update();
    emit instructionSelected(index ? static_cast<qint64>(*index) : -1);
}

void TimelineView::selectSpill(std::optional<std::uint32_t> transfer) {
    if (!m_result || (transfer && *transfer >= m_result->spills.transfers.size())) {
        transfer.reset();
    }
    selectInstruction(std::nullopt); // one selection at a time: the inspector shows the spill instead
    m_selectedSpill = transfer;
    update();
    if (transfer) {
        emit spillSelected(static_cast<qint64>(*transfer));
    }
}

void TimelineView::buildFlows() {
    m_flows.clear();
    if (!m_selected) {
        return;
    }
    const auto& tl = m_result->timeline;
    const std::uint32_t selected = *m_selected;
    // What held it back: the producer it waited on, else (engine or queue busy) the instruction before it on
    // its row; a capacity wait has no instruction to point at and gets its label on the selection alone.
    std::optional<std::uint32_t> from;
    if (const std::uint32_t waitOn = tl.waitOn(selected); waitOn < tl.size()) {
        from = waitOn;
    } else if (tl.cause(selected) == sim::WaitCause::Engine || tl.cause(selected) == sim::WaitCause::DmaQueue) {
        from = m_rows->previousOnRow(selected);
    }
    QString label = causeText(tl.cause(selected));
    if (tl.stallPs(selected) > 0) {
        label += tr(" for %1").arg(QString::fromStdString(formatTime(tl.stallPs(selected))));
    }
    if (from) {
        label = tr("#%1 \u2192 %2").arg(*from).arg(label);
    }
    if (tl.cause(selected) != sim::WaitCause::None || from) {
        m_flows.push_back({from.value_or(selected), selected, FlowArrow::Kind::WaitedOn, label});
    }
    // Every other producer too (an instruction waits for all its inputs; the run records only the last one).
    if (m_ir && m_ir->instructions().size() == tl.size()) {
        for (const std::uint32_t producer : instructionProducers(*m_ir, selected, kMaxDependantArrows)) {
            if (producer != from) {
                m_flows.push_back({producer, selected, FlowArrow::Kind::Producer, {}});
            }
        }
    }
    std::size_t dependants = 0;
    for (std::uint32_t i = selected + 1; i < tl.size() && dependants < kMaxDependantArrows; ++i) {
        if (tl.waitOn(i) == selected) {
            m_flows.push_back({selected, i, FlowArrow::Kind::Dependant, {}});
            ++dependants;
        }
    }
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
    case ColourBy::Engine:
        return TimelineColours::laneColour(sim::localLane(tl.lane(index), m_result->lanesPerCore), palette());
    case ColourBy::Operation: return TimelineColours::keyColour(static_cast<std::uint32_t>(tl.op(index)), palette());
    case ColourBy::SourceLine: return TimelineColours::keyColour(tl.line(index), palette());
    }
    return TimelineColours::laneColour(0, palette());
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
    emit runPainted();
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
    const TimeTicks ticks = computeTimeTicks(m_t0, m_t1, plotWidth(), kTickSpacingPx);
    for (TimePs t : ticks.ticks) {
        const int x = static_cast<int>(xOf(t));
        painter.drawLine(x, kRulerHeight - 6, x, kRulerHeight);
        painter.drawText(x + 3, kRulerHeight - 8, QString::fromStdString(formatTime(t, ticks.step)));
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
}

double TimelineView::rowBusyShare(std::size_t row) const {
    if (!m_rows) {
        return 0;
    }
    // Only the part of the window inside the run counts: fitting adds a margin either side.
    const TimePs t0 = std::max<TimePs>(m_t0, 0);
    const TimePs t1 = std::min(m_t1, m_rows->endTime());
    return t1 > t0 ? static_cast<double>(m_rows->busyPs(row, t0, t1)) / static_cast<double>(t1 - t0) : 0.0;
}

QString TimelineView::rowLabel(std::size_t row) const {
    return QStringLiteral("%1  %2%")
        .arg(QString::fromStdString(m_rows->rowName(row)))
        .arg(rowBusyShare(row) * 100, 0, 'f', 0);
}

void TimelineView::paintLabels(QPainter& painter) {
    painter.fillRect(QRect(0, kRulerHeight, kLabelWidth, height() - kRulerHeight), palette().window());
    QColor bar = palette().color(QPalette::Highlight);
    bar.setAlpha(45);
    for (std::size_t row = 0; row < m_rows->rowCount(); ++row) {
        const int top = rowCentreY(row) - kRowHeight / 2;
        const QRect box(6, top, kLabelWidth - 10, kRowHeight);
        // A bar under the name as long as the lane is busy in the visible window, as in Neuron Explorer.
        const double busy = std::clamp(rowBusyShare(row), 0.0, 1.0);
        painter.fillRect(QRectF(2, top + 2, (kLabelWidth - 5) * busy, kRowHeight - 4), bar);
        QString name = QString::fromStdString(m_rows->rowName(row));
        const auto kind = m_rows->rowKind(row);
        if (kind == TimelineRows::Kind::CoreHeader) {
            // A core's group of lanes (LNC 2): click to fold it away or back.
            const bool open = m_rows->coreExpanded(m_rows->rowCore(row));
            painter.setPen(palette().color(QPalette::WindowText));
            QFont bold = painter.font();
            bold.setBold(true);
            painter.save();
            painter.setFont(bold);
            painter.drawText(box, Qt::AlignVCenter | Qt::AlignLeft,
                             (open ? QStringLiteral("\u25BE ") : QStringLiteral("\u25B8 ")) + name);
            painter.restore();
            painter.setPen(palette().color(QPalette::Mid));
            painter.drawLine(0, top, width(), top);
            continue;
        }
        if (kind == TimelineRows::Kind::DmaSummary) {
            name = QStringLiteral("\u25B8 ") + name; // collapsed group: click to expand
        } else if (kind == TimelineRows::Kind::DmaQueue && row > 0 &&
                   m_rows->rowKind(row - 1) != TimelineRows::Kind::DmaQueue) {
            name = QStringLiteral("\u25BE ") + name; // first queue of an expanded group: click to collapse
        }
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(box, Qt::AlignVCenter | Qt::AlignLeft, name);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(box, Qt::AlignVCenter | Qt::AlignRight, QStringLiteral("%1%").arg(busy * 100, 0, 'f', 0));
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, height());
}

void TimelineView::paintMarks(QPainter& painter) {
    const bool dimming = !m_highlighted.empty();
    const QColor summaryColour =
        TimelineColours::slotColour(TimelineColours::kStyleCount - 1, isDarkPalette(palette()));
    for (const TimelineMark& mark : m_marks) {
        const int top = rowCentreY(mark.row) - kRowHeight / 2 + 3;
        const QRectF box(kLabelWidth + mark.x0, top, std::max(1.0, mark.x1 - mark.x0), kRowHeight - 6);
        if (mark.spill != kNoInstruction) {
            const bool reload = m_result->spills.transfers[mark.spill].kind == sim::DmaKind::Reload;
            painter.fillRect(box, TimelineColours::spillColour(reload, palette()));
            if (m_selectedSpill == mark.spill) {
                painter.setPen(QPen(palette().color(QPalette::WindowText), 2));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(box.adjusted(-1, -1, 1, 1));
            }
            continue;
        }
        QColor colour = mark.first == kNoInstruction ? summaryColour : colourOf(mark.first);
        if (mark.count > 1) {
            // A folded run mixes busy and idle time narrower than a pixel: its opacity follows how busy it
            // is, so a mostly idle lane does not look busy at full zoom-out.
            colour.setAlpha(70 + static_cast<int>(185.0F * mark.busy));
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
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    for (const FlowArrow& flow : m_flows) {
        paintFlow(painter, flow);
    }
    painter.restore();
}

void TimelineView::paintFlow(QPainter& painter, const FlowArrow& flow) {
    const auto& tl = m_result->timeline;
    const auto rowFrom = m_rows->rowOf(flow.from);
    const auto rowTo = m_rows->rowOf(flow.to);
    if (!rowFrom || !rowTo) {
        return;
    }
    const QColor colour = TimelineColours::flowColour(flow.kind, palette());
    const QPointF b(xOf(tl.mainStartPs(flow.to)), rowCentreY(*rowTo));
    if (flow.from != flow.to) {
        // A Bezier leaving the producer's end and entering the consumer's start horizontally, as Perfetto's flows.
        const QPointF a(xOf(tl.endPs(flow.from)), rowCentreY(*rowFrom));
        const double pull = std::max(24.0, std::abs(b.x() - a.x()) / 2);
        QPainterPath path(a);
        path.cubicTo(a + QPointF(pull, 0), b - QPointF(pull, 0), b);
        painter.setPen(QPen(colour, 1.6));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        painter.setBrush(colour);
        painter.drawEllipse(a, 2.5, 2.5);
        QPainterPath head;
        head.moveTo(b);
        head.lineTo(b + QPointF(-8, -4));
        head.lineTo(b + QPointF(-8, 4));
        head.closeSubpath();
        painter.fillPath(head, colour);
    }
    if (flow.label.isEmpty()) {
        return;
    }
    // The wait cause sits just above the arrow's end, on a chip of the base colour so it reads over marks.
    const QFontMetrics metrics(font());
    const QRectF text(b.x() - metrics.horizontalAdvance(flow.label) - 14, b.y() - kRowHeight - 2,
                      metrics.horizontalAdvance(flow.label) + 8, metrics.height() + 2);
    QRectF chip = text;
    if (chip.left() < kLabelWidth + 2) {
        chip.moveLeft(kLabelWidth + 2);
    }
    if (chip.top() < kRulerHeight) {
        chip.moveTop(b.y() + kRowHeight / 2.0);
    }
    QColor fill = palette().color(QPalette::Base);
    fill.setAlpha(225);
    painter.setPen(QPen(colour, 1));
    painter.setBrush(fill);
    painter.drawRoundedRect(chip, 3, 3);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(chip, Qt::AlignCenter, flow.label);
}

std::optional<TimelineView::Probe> TimelineView::probeAt(const QPoint& pos) const {
    if (!m_rows || pos.x() < kLabelWidth) {
        return std::nullopt;
    }
    const auto row = rowAt(pos.y());
    if (!row) {
        return std::nullopt;
    }
    return Probe{*row, timeAt(pos.x()), timeAt(pos.x() + kMinMarkWidthPx) - timeAt(pos.x())};
}

std::optional<std::uint32_t> TimelineView::instructionAt(const QPoint& pos) const {
    const auto p = probeAt(pos);
    return p ? m_rows->hitTest(p->row, p->time, p->slack) : std::nullopt;
}

QString TimelineView::tooltipFor(std::uint32_t index) const {
    const auto& tl = m_result->timeline;
    const auto& file = tl.file(index) < m_result->files.size() ? m_result->files[tl.file(index)] : std::string();
    return QStringLiteral("<b>#%1 %2</b> on %3<br>%4 \u2192 %5 (%6)<br>%7:%8<br>waited: %9")
        .arg(index)
        .arg(QString::fromLatin1(sim::opName(tl.op(index)).data()))
        .arg(QString::fromStdString(m_result->laneLabel(tl.lane(index))))
        .arg(QString::fromStdString(formatTimeFor(tl.mainStartPs(index), tl.endPs(index) - tl.mainStartPs(index))))
        .arg(QString::fromStdString(formatTimeFor(tl.endPs(index), tl.endPs(index) - tl.mainStartPs(index))))
        .arg(QString::fromStdString(formatTime(tl.endPs(index) - tl.mainStartPs(index))))
        .arg(QString::fromStdString(file))
        .arg(tl.line(index))
        .arg(QString::fromLatin1(sim::waitCauseName(tl.cause(index)).data()));
}

std::optional<std::uint32_t> TimelineView::spillAt(const QPoint& pos) const {
    const auto p = probeAt(pos);
    return p ? m_rows->spillAt(p->row, p->time, p->slack) : std::nullopt;
}

QString TimelineView::spillTooltip(std::uint32_t k) const {
    const SpillText s = describeSpill(*m_result, k);
    return QStringLiteral("<b>%1</b> of tile '%2' (%3)<br>%4 on %5<br>%6 \u2192 %7 (%8)<br>%9 #%10")
        .arg(s.title, s.tile.toHtmlEscaped(), s.declaredAt.toHtmlEscaped(), s.bytes, s.queue, s.start, s.end,
             s.duration, s.purpose)
        .arg(s.forIndex);
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto spill = spillAt(help->pos())) {
            QToolTip::showText(help->globalPos(), spillTooltip(*spill), this);
        } else if (const auto index = instructionAt(help->pos())) {
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
        setRange(std::nullopt);
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
        const auto delta =
            static_cast<TimePs>(std::llround(dx * static_cast<double>(m_pressT1 - m_pressT0) / plotWidth()));
        setVisibleRange(m_pressT0 - delta, m_pressT1 - delta);
    } else if (m_drag == Drag::Select && std::abs(event->pos().x() - m_pressPos.x()) >= kDragThresholdPx) {
        const TimePs a = timeAt(m_pressPos.x());
        const TimePs b = timeAt(event->pos().x());
        setRange(std::pair(std::min(a, b), std::max(a, b)));
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
        if (row && m_rows && m_rows->rowKind(*row) == TimelineRows::Kind::CoreHeader) {
            const std::uint32_t core = m_rows->rowCore(*row);
            m_rows->setCoreExpanded(core, !m_rows->coreExpanded(core));
            updateGeometry();
            rebuildMarks();
            update();
            return;
        }
        if (row && m_rows &&
            (m_rows->rowKind(*row) == TimelineRows::Kind::DmaQueue ||
             m_rows->rowKind(*row) == TimelineRows::Kind::DmaSummary)) {
            m_dmaExpandedChoice = !m_rows->dmaExpanded();
            m_rows->setDmaExpanded(*m_dmaExpandedChoice);
            updateGeometry();
            rebuildMarks();
            update();
        }
        return;
    }
    setRange(std::nullopt);
    if (const auto spill = spillAt(event->pos())) {
        selectSpill(spill);
        return;
    }
    selectInstruction(instructionAt(event->pos()));
}

} // namespace kl::views
