#pragma once

#include <QColor>
#include <QString>

#include <cstdint>

class QPalette;

namespace kl::views {

/// The timeline's colours, defined once: one entry per compute lane and one shared by every DMA queue, each
/// with a light-theme and a dark-theme colour (both at least 3:1 against the theme's base, WCAG's figure for
/// graphical marks; TimelineViewTest checks it), and the legend's name for it. The views, the legend and
/// the plots under the timeline take their engine colours from here.
class TimelineColours {
public:
    static constexpr int kStyleCount = 6; ///< pe.ls, pe.mm, vector, scalar, gpsimd, any DMA queue
    /// The arrows drawn for the selected instruction: what held it back, its other inputs, its dependants.
    enum class FlowKind { WaitedOn, Producer, Dependant };

    /// The style slot of a timeline lane (every DMA queue shares the last).
    [[nodiscard]] static int slotOf(std::uint16_t lane);
    [[nodiscard]] static QColor laneColour(std::uint16_t lane, const QPalette& palette);
    [[nodiscard]] static QColor slotColour(int slot, bool dark);
    [[nodiscard]] static QString slotLabel(int slot);
    /// Spill (tile written out to HBM) and reload (read back) transfers on the DMA queue rows.
    [[nodiscard]] static QColor spillColour(bool reload, const QPalette& palette);
    [[nodiscard]] static QString spillLabel(bool reload);
    /// The colour and the legend's words for a kind of flow arrow (the view and the legend share them).
    [[nodiscard]] static QColor flowColour(FlowKind kind, const QPalette& palette);
    [[nodiscard]] static QString flowLabel(FlowKind kind);
    /// A colour for an operation or a source line: hues spread by the golden ratio so that neighbouring
    /// keys differ, made to contrast with the palette's base.
    [[nodiscard]] static QColor keyColour(std::uint32_t key, const QPalette& palette);
};

} // namespace kl::views
