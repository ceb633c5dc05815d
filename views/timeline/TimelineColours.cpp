#include "timeline/TimelineColours.h"

#include "common/Contrast.h"

#include "engine/SimTypes.h"

#include <QCoreApplication>
#include <QPalette>

#include <algorithm>
#include <array>
#include <cmath>

namespace kl::views {

namespace {

struct LaneStyle {
    const char* label;
    QColor light;
    QColor dark;
};

// Indexed by lane; the last entry is every DMA queue. TensorE's two rows are two blues apart in lightness.
const std::array<LaneStyle, TimelineColours::kStyleCount> kStyles = {{
    {QT_TRANSLATE_NOOP("TimelineColours", "TensorE LoadStationary"), {74, 144, 226}, {120, 186, 245}},
    {QT_TRANSLATE_NOOP("TimelineColours", "TensorE MultiplyMoving"), {31, 96, 178}, {76, 146, 236}},
    {QT_TRANSLATE_NOOP("TimelineColours", "VectorE"), {214, 120, 30}, {240, 160, 70}},
    {QT_TRANSLATE_NOOP("TimelineColours", "ScalarE"), {76, 150, 56}, {120, 195, 90}},
    {QT_TRANSLATE_NOOP("TimelineColours", "GpSimdE"), {160, 84, 184}, {200, 135, 222}},
    {QT_TRANSLATE_NOOP("TimelineColours", "DMA"), {112, 120, 134}, {150, 158, 170}},
}};
static_assert(TimelineColours::kStyleCount == sim::kComputeLanes + 1, "one style per compute lane, one for DMA");

} // namespace

int TimelineColours::slotOf(std::uint16_t lane) {
    const sim::LaneId id(lane);
    return id.isDma() ? kStyleCount - 1 : id.value();
}

QColor TimelineColours::slotColour(int slot, bool dark) {
    const LaneStyle& style = kStyles[static_cast<std::size_t>(std::clamp(slot, 0, kStyleCount - 1))];
    return dark ? style.dark : style.light;
}

QColor TimelineColours::laneColour(std::uint16_t lane, const QPalette& palette) {
    return slotColour(slotOf(lane), isDarkPalette(palette));
}

QString TimelineColours::slotLabel(int slot) {
    return QCoreApplication::translate("TimelineColours",
                                       kStyles[static_cast<std::size_t>(std::clamp(slot, 0, kStyleCount - 1))].label);
}

QColor TimelineColours::spillColour(bool reload, const QPalette& palette) {
    // Red for the way out, magenta for the way back: neither is an engine colour, both read as "trouble".
    const bool dark = isDarkPalette(palette);
    const QColor colour = reload ? (dark ? QColor(240, 110, 200) : QColor(176, 38, 132))
                                 : (dark ? QColor(255, 105, 95) : QColor(200, 36, 36));
    return ensureContrast(colour, palette.color(QPalette::Base), 3.0);
}

QString TimelineColours::spillLabel(bool reload) {
    return reload ? QCoreApplication::translate("TimelineColours", "Reload (HBM to on-chip)")
                  : QCoreApplication::translate("TimelineColours", "Spill (on-chip to HBM)");
}

QColor TimelineColours::flowColour(FlowKind kind, const QPalette& palette) {
    // Red marks the one input that held the instruction back (the wait the inspector explains), blue-grey the
    // inputs that were ready in time, green what waited on this instruction.
    const bool dark = isDarkPalette(palette);
    switch (kind) {
    case FlowKind::WaitedOn: return dark ? QColor(255, 110, 100) : QColor(200, 40, 40);
    case FlowKind::Producer: return dark ? QColor(150, 170, 230) : QColor(70, 90, 160);
    case FlowKind::Dependant: break;
    }
    return dark ? QColor(90, 210, 140) : QColor(30, 130, 75);
}

QString TimelineColours::flowLabel(FlowKind kind) {
    switch (kind) {
    case FlowKind::WaitedOn: return QCoreApplication::translate("TimelineColours", "Held it back");
    case FlowKind::Producer: return QCoreApplication::translate("TimelineColours", "Input ready in time");
    case FlowKind::Dependant: break;
    }
    return QCoreApplication::translate("TimelineColours", "Uses its result");
}

QColor TimelineColours::keyColour(std::uint32_t key, const QPalette& palette) {
    const double hue = std::fmod(0.13 + key * 0.6180339887, 1.0);
    const bool dark = isDarkPalette(palette);
    const QColor colour = QColor::fromHsvF(static_cast<float>(hue), dark ? 0.50F : 0.65F, dark ? 0.95F : 0.80F);
    return ensureContrast(colour, palette.color(QPalette::Base), 3.0);
}

} // namespace kl::views
