#include "timeline/SpillText.h"

#include "timeline/TimeAxis.h"

#include <QCoreApplication>

namespace kl::views {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SpillText", text);
}

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

SpillText describeSpill(const sim::SimResult& result, std::uint32_t k) {
    const sim::SpillTransfer& s = result.spills.transfers[k];
    const sim::SpillTile* tile = result.spills.tile(s.buffer);
    const bool reload = s.kind == sim::DmaKind::Reload;
    const QLatin1String memory(s.memory == sim::Memory::Psum ? "PSUM" : "SBUF");
    SpillText text;
    text.title = reload ? tr("Reload %1 \u2190 HBM").arg(memory) : tr("Spill %1 \u2192 HBM").arg(memory);
    text.tile = q(tile != nullptr ? tile->name : std::string("?"));
    text.declaredAt = tr("an unknown line");
    if (tile != nullptr && tile->decl.line > 0) {
        const std::string file = tile->decl.file < result.files.size() ? result.files[tile->decl.file] : "";
        text.declaredAt = QStringLiteral("%1:%2").arg(q(file)).arg(tile->decl.line);
        text.declLine = tile->decl.line;
    }
    const sim::TimePs span = s.endPs - s.startPs;
    text.bytes = q(formatBytes(static_cast<double>(s.bytes)));
    text.queue = q(result.laneLabel(s.lane));
    text.start = q(formatTimeFor(s.startPs, span));
    text.end = q(formatTimeFor(s.endPs, span));
    text.duration = q(formatTime(span));
    text.purpose = reload ? tr("needed by instruction") : tr("made room for instruction");
    text.forIndex = s.forIndex;
    return text;
}

} // namespace kl::views
