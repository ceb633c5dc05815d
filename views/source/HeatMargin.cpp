#include "source/HeatMargin.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <QFontDatabase>

namespace kl::views {

namespace {
/// Text-margin styles live above the lexers' styles (which stay below 128).
constexpr int kStyleBase = 200;
} // namespace

HeatMargin::HeatMargin(QsciScintilla* editor, int firstMarker) : m_editor(editor), m_firstMarker(firstMarker) {
    unsigned mask = 0;
    for (int step = 0; step < kSteps; ++step) {
        m_editor->markerDefine(QsciScintilla::FullRectangle, m_firstMarker + step);
        m_editor->setMarkerBackgroundColor(colour(step), m_firstMarker + step);
        m_editor->setMarkerForegroundColor(colour(step), m_firstMarker + step);
        mask |= 1U << (m_firstMarker + step);
    }
    m_editor->setMarginType(kTextMargin, QsciScintilla::TextMarginRightJustified);
    m_editor->setMarginMarkerMask(kTextMargin, 0);
    m_editor->setMarginType(kStripMargin, QsciScintilla::SymbolMargin);
    m_editor->setMarginMarkerMask(kStripMargin, static_cast<int>(mask));
    m_editor->setMarginWidth(kTextMargin, 0);
    m_editor->setMarginWidth(kStripMargin, 0);
    m_firstStyle = kStyleBase;
}

QColor HeatMargin::colour(int step) {
    // Pale yellow to deep red through orange, readable with black text on every step but the last two.
    static const QColor kHeat[kSteps] = {QColor(255, 247, 204), QColor(255, 234, 160), QColor(255, 214, 120),
                                         QColor(253, 184, 99),  QColor(250, 146, 72),  QColor(240, 104, 56),
                                         QColor(215, 58, 44),   QColor(170, 20, 30)};
    return kHeat[std::clamp(step, 0, kSteps - 1)];
}

void HeatMargin::clear() {
    for (int step = 0; step < kSteps; ++step) {
        m_editor->markerDeleteAll(m_firstMarker + step);
    }
    m_editor->clearMarginText();
    m_editor->setMarginWidth(kTextMargin, 0);
    m_editor->setMarginWidth(kStripMargin, 0);
}

void HeatMargin::show(const core::LineCostTable& table) {
    clear();
    if (table.lines.empty()) {
        return;
    }
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(font.pointSizeF() * 0.9);
    for (const core::LineCost& cost : table.lines) {
        if (cost.line < 1 || cost.line > m_editor->lines()) {
            continue;
        }
        const int step = core::heatStep(cost.share, table.maxShare, kSteps);
        m_editor->markerAdd(cost.line - 1, m_firstMarker + step);
        const QColor text = step >= kSteps - 2 ? Qt::white : Qt::black;
        const QsciStyle style(m_firstStyle + step, QStringLiteral("heat"), text, colour(step), font);
        const double pct = 100.0 * cost.share;
        const QString label = pct >= 0.05 ? QString::number(pct, 'f', 1) + QLatin1Char('%') : QStringLiteral("<0.1%");
        m_editor->setMarginText(cost.line - 1, label, style);
    }
    m_editor->setMarginWidth(kTextMargin, QStringLiteral("100.0%0"));
    m_editor->setMarginWidth(kStripMargin, 8);
}

int HeatMargin::stepAt(int line) const {
    const unsigned markers = m_editor->markersAtLine(line - 1);
    for (int step = 0; step < kSteps; ++step) {
        if ((markers & (1U << (m_firstMarker + step))) != 0) {
            return step;
        }
    }
    return -1;
}

} // namespace kl::views
