#include "source/NkiLexer.h"

#include <Qsci/qsciscintilla.h>

#include <QColor>
#include <QRegularExpression>

namespace kl::views {

NkiLexer::NkiLexer(QObject* parent) : QsciLexerPython(parent) {}

const char* NkiLexer::keywords(int set) const {
    if (set == 2) {
        return "nl nisa nki neuronxcc";
    }
    return QsciLexerPython::keywords(set);
}

QColor NkiLexer::defaultColor(int style) const {
    if (style == HighlightedIdentifier) {
        return QColor(0xc0, 0x5a, 0x00); // the NKI modules, in orange
    }
    return QsciLexerPython::defaultColor(style);
}

int NkiLexer::markNkiCalls(QsciScintilla* editor) {
    editor->indicatorDefine(QsciScintilla::ThickCompositionIndicator, kCallIndicator);
    editor->setIndicatorForegroundColor(QColor(0xc0, 0x5a, 0x00, 160), kCallIndicator);
    editor->clearIndicatorRange(0, 0, editor->lines(), 0, kCallIndicator);
    static const QRegularExpression call(QStringLiteral(R"(\b(nl|nisa)\.[A-Za-z_]\w*(?=\s*\())"));
    int count = 0;
    for (int line = 0; line < editor->lines(); ++line) {
        const QString text = editor->text(line);
        const int hash = text.indexOf(QLatin1Char('#'));
        auto it = call.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            if (hash >= 0 && m.capturedStart() > hash) {
                break;
            }
            // Scintilla indexes are byte offsets in UTF-8; NKI code before a comment is ASCII in practice.
            editor->fillIndicatorRange(line, static_cast<int>(m.capturedStart()), line,
                                       static_cast<int>(m.capturedEnd()), kCallIndicator);
            ++count;
        }
    }
    return count;
}

} // namespace kl::views
