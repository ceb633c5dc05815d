#include "timeline/InspectorPane.h"

#include "common/QtText.h"

#include "timeline/SpillText.h"
#include "timeline/TimeAxis.h"

#include <QUrl>

namespace kl::views {

namespace {

QString t(sim::TimePs ps) {
    return QString::fromStdString(formatTime(ps));
}
/// An instant shown precisely enough that two instants `span` apart read differently.
QString t(sim::TimePs ps, sim::TimePs span) {
    return QString::fromStdString(formatTimeFor(ps, span));
}
QString bytes(double n) {
    return QString::fromStdString(formatBytes(n));
}

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:10px'><b>%1</b></td><td>%2</td></tr>").arg(key, value);
}

QString memoryLabel(sim::Memory memory) {
    return toHtmlText(sim::memoryName(memory)).toUpper();
}

QString dtypeLabel(sim::DType dtype) {
    using D = sim::DType;
    switch (dtype) {
    case D::BFloat16: return QStringLiteral("bfloat16");
    case D::Float16: return QStringLiteral("float16");
    case D::Float32: return QStringLiteral("float32");
    case D::Float8E4M3: return QStringLiteral("float8_e4m3");
    case D::Float8E5M2: return QStringLiteral("float8_e5m2");
    case D::Int8: return QStringLiteral("int8");
    case D::Int16: return QStringLiteral("int16");
    case D::Int32: return QStringLiteral("int32");
    case D::Uint8: return QStringLiteral("uint8");
    case D::Uint16: return QStringLiteral("uint16");
    case D::Uint32: return QStringLiteral("uint32");
    case D::Bool: return QStringLiteral("bool");
    default: return QStringLiteral("?");
    }
}

} // namespace

InspectorPane::InspectorPane(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QString s = url.toString();
        if (s.startsWith(QLatin1String("instr:"))) {
            emit instructionLinkActivated(s.mid(6).toLongLong());
        } else if (s.startsWith(QLatin1String("line:"))) {
            emit sourceLineLinkActivated(s.mid(5).toInt());
        }
    });
    showNothing();
}

void InspectorPane::setRun(std::shared_ptr<const sim::KernelIr> ir, std::shared_ptr<const sim::SimResult> result) {
    m_ir = std::move(ir);
    m_result = std::move(result);
    showNothing();
}

void InspectorPane::showNothing() {
    setHtml(tr("<p style='color:gray'>Click an instruction on the timeline to inspect it, or drag across the "
               "timeline to get the statistics of a time range.</p>"));
}

QString InspectorPane::operandsHtml(const sim::Instruction& in) const {
    QString html;
    auto add = [&](const char* role, const sim::AccessPattern& ap) {
        if (ap.buffer >= m_ir->buffers().size()) {
            return;
        }
        const sim::BufferView buffer = m_ir->buffers()[ap.buffer];
        const std::int64_t perPartition = sim::elementCount(*m_ir, ap);
        const std::int64_t partitions = buffer.memory == sim::Memory::Hbm ? 1 : ap.partCount;
        const std::int64_t byteCount = perPartition * partitions * std::max<std::int32_t>(1, buffer.dtypeBytes);
        QStringList shape;
        for (auto d : buffer.shape) {
            shape << QString::number(d);
        }
        const QString region = buffer.memory == sim::Memory::Hbm ? tr("%1 elements").arg(perPartition)
                                                                 : tr("partitions %1-%2 x %3 elements")
                                                                       .arg(ap.partStart)
                                                                       .arg(ap.partStart + ap.partCount - 1)
                                                                       .arg(perPartition);
        html += QStringLiteral("<li>%1 <b>%2</b> (%3 [%4] %5): %6, %7</li>")
                    .arg(QString::fromLatin1(role), toHtmlText(buffer.name), memoryLabel(buffer.memory),
                         shape.join(QLatin1Char('x')), dtypeLabel(buffer.dtype), region,
                         bytes(static_cast<double>(byteCount)));
    };
    for (const auto& ap : m_ir->dsts(in)) {
        add("dst", ap);
    }
    for (const auto& ap : m_ir->srcs(in)) {
        add("src", ap);
    }
    return html.isEmpty() ? QString() : QStringLiteral("<ul style='margin-left:-20px'>%1</ul>").arg(html);
}

void InspectorPane::showInstruction(std::uint32_t index) {
    if (!m_result || index >= m_result->timeline.size()) {
        showNothing();
        return;
    }
    const auto& tl = m_result->timeline;
    QString html = QStringLiteral("<h3>#%1 %2</h3><table>").arg(index).arg(toHtmlText(sim::opName(tl.op(index))));
    html += row(tr("Engine"), toHtmlText(m_result->laneLabel(tl.lane(index))));
    const sim::TimePs duration = tl.endPs(index) - tl.mainStartPs(index);
    html += row(tr("Start"), t(tl.mainStartPs(index), duration));
    html += row(tr("End"), t(tl.endPs(index), duration));
    html += row(tr("Duration"), t(duration));
    if (tl.startPs(index) != tl.mainStartPs(index)) {
        html += row(tr("LoadStationary from"), t(tl.startPs(index), tl.mainStartPs(index) - tl.startPs(index)));
    }
    QString waited = toHtmlText(sim::waitCauseName(tl.cause(index)));
    if (tl.waitOn(index) < tl.size()) {
        waited += QStringLiteral(" <a href='instr:%1'>#%1 %2</a>")
                      .arg(tl.waitOn(index))
                      .arg(toHtmlText(sim::opName(tl.op(tl.waitOn(index)))));
    }
    if (tl.stallPs(index) > 0) {
        waited += tr(" for %1").arg(t(tl.stallPs(index)));
    }
    html += row(tr("Waited"), waited);
    if (tl.line(index) > 0) {
        const std::string file = tl.file(index) < m_result->files.size() ? m_result->files[tl.file(index)] : "";
        html +=
            row(tr("Source"), QStringLiteral("<a href='line:%2'>%1:%2</a>").arg(toHtmlText(file)).arg(tl.line(index)));
    }
    html += QStringLiteral("</table>");
    if (m_ir && index < m_ir->instructions().size()) {
        const auto& in = m_ir->instructions()[index];
        html +=
            tr("<p><b>Operands</b> (%1 elements, %2)</p>").arg(in.elements).arg(bytes(static_cast<double>(in.bytes))) +
            operandsHtml(in);
    }
    setHtml(html);
}

void InspectorPane::showSpill(std::uint32_t transfer) {
    if (!m_result || transfer >= m_result->spills.transfers.size()) {
        showNothing();
        return;
    }
    const SpillText s = describeSpill(*m_result, transfer);
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(s.title);
    const QString declared =
        s.declLine > 0 ? QStringLiteral("<a href='line:%1'>%2</a>").arg(s.declLine).arg(s.declaredAt.toHtmlEscaped())
                       : s.declaredAt.toHtmlEscaped();
    html += row(tr("Tile"), s.tile.toHtmlEscaped() + QStringLiteral(" (") + declared + QStringLiteral(")"));
    html += row(tr("Bytes"), s.bytes);
    html += row(tr("Queue"), s.queue.toHtmlEscaped());
    html += row(tr("Start"), s.start);
    html += row(tr("End"), s.end);
    html += row(tr("Duration"), s.duration);
    if (s.forIndex < m_result->timeline.size()) {
        html += row(tr("Why"), QStringLiteral("%1 <a href='instr:%2'>#%2 %3</a>")
                                   .arg(s.purpose)
                                   .arg(s.forIndex)
                                   .arg(toHtmlText(sim::opName(m_result->timeline.op(s.forIndex)))));
    }
    html += QStringLiteral("</table><p>") +
            tr("The tile did not fit in on-chip memory beside the others live at that moment, so the simulator moved "
               "it to HBM and back (see Findings for what it costs the run).") +
            QStringLiteral("</p>");
    setHtml(html);
}

void InspectorPane::showRange(const core::RangeStatistics& stats) {
    QString html = tr("<h3>Range %1 \u2013 %2</h3><p>%3 long, %4 instructions</p><table>")
                       .arg(t(stats.startPs, stats.endPs - stats.startPs), t(stats.endPs, stats.endPs - stats.startPs),
                            t(stats.endPs - stats.startPs))
                       .arg(stats.instructions);
    static const char* kRows[] = {"pe.ls", "pe.mm", "vector", "scalar", "gpsimd"};
    html += row(tr("tensor (either row)"), QStringLiteral("%1 %").arg(stats.tensorActivePct, 0, 'f', 1));
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        html += row(QString::fromLatin1(kRows[i]), QStringLiteral("%1 %").arg(stats.computeActivePct[i], 0, 'f', 1));
    }
    html += row(tr("DMA active"), QStringLiteral("%1 %").arg(stats.dmaActivePct, 0, 'f', 1));
    html += row(tr("DMA bytes"), bytes(static_cast<double>(stats.dmaBytes)));
    html += row(tr("DMA bandwidth"), QStringLiteral("%1 GB/s").arg(stats.dmaBytesPerNs, 0, 'f', 1));
    html += QStringLiteral("</table><p><b>By operation</b></p><table>");
    for (const auto& [op, count] : stats.countByOperation) {
        html += row(toHtmlText(op), QString::number(count));
    }
    html += QStringLiteral("</table>");
    setHtml(html);
}

} // namespace kl::views
