#pragma once

#include "source/LineCost.h"

#include <QColor>

class QsciScintilla;

namespace kl::views {

/// Per-line cost in the NKI pane's margins: a text margin with each line's share of the run ("12.3%")
/// on a heat-coloured background, and beside it a narrow strip of heat markers in kSteps colours from
/// pale yellow to deep red (core::heatStep: relative to the hottest line). Tooltips are left to the
/// Hot Lines list; the margins are meant to be read at a glance.
class HeatMargin {
public:
    static constexpr int kSteps = 8;
    static constexpr int kTextMargin = 1;
    static constexpr int kStripMargin = 2;

    /// `firstMarker`: the first of kSteps marker numbers the margin may use.
    HeatMargin(QsciScintilla* editor, int firstMarker);

    void show(const core::LineCostTable& table);
    void clear();
    [[nodiscard]] static QColor colour(int step);
    /// The heat step shown on a 1-based line, -1 when none (for tests).
    [[nodiscard]] int stepAt(int line) const;

private:
    QsciScintilla* m_editor;
    int m_firstMarker;
    int m_firstStyle = 0;
};

} // namespace kl::views
