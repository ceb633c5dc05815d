#pragma once

#include <QColor>

class QPalette;
class QsciScintilla;

namespace kl::views {

/// Paints a QScintilla editor in the application's palette (QScintilla keeps its own white paper and
/// dark-on-light lexer colours whatever the palette): paper, text, margins, caret line, selection, folding
/// margin, and every lexer style's colour raised to 4.5:1 against the paper (WCAG's figure for text).
/// SourcePane calls it when built and on every palette change.
class SourceTheme {
public:
    static void apply(QsciScintilla* editor, const QPalette& palette);
    /// A marker background (a link's pastel, the highlight) as it should look on this palette's paper: on a
    /// dark paper the pastel is mixed into the paper so that the text over it stays readable.
    [[nodiscard]] static QColor markerBackground(const QColor& colour, const QPalette& palette);
};

} // namespace kl::views
