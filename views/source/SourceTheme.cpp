#include "source/SourceTheme.h"

#include "common/Contrast.h"

#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>

#include <QPalette>

namespace kl::views {

namespace {

constexpr int kMaxStyles = 128; // QScintilla's style numbers (STYLE_MAX is 255; lexers use fewer)

QColor mix(const QColor& a, const QColor& b, double shareOfA) {
    return QColor::fromRgbF(static_cast<float>(a.redF() * shareOfA + b.redF() * (1 - shareOfA)),
                            static_cast<float>(a.greenF() * shareOfA + b.greenF() * (1 - shareOfA)),
                            static_cast<float>(a.blueF() * shareOfA + b.blueF() * (1 - shareOfA)));
}

/// Dark-paper colours by the kind of text a lexer style holds (matched on its description, so the Python and
/// C++ lexers share one table). The lexers' own colours are picked for white paper: lifted for contrast, their
/// dark red strings become a glaring red, so on dark paper these soft tones replace them.
struct DarkTone {
    const char* describes; ///< lower-case part of QsciLexer::description()
    QRgb colour;
};
constexpr DarkTone kDarkTones[] = {
    {"comment", 0x8fb37a},   // sage green
    {"triple", 0xb5c99a},    // docstrings: paler green, apart from code
    {"string", 0xdcae82},    // warm tan
    {"character", 0xdcae82}, // C++ character literals read as strings
    {"regular expression", 0xd7a0c8},
    {"number", 0xb5cea8},
    {"keyword", 0x82b4f0}, // soft blue
    {"decorator", 0xdcdcaa},
    {"preprocessor", 0xc8a0e6},
};

/// The dark-paper tone for a style, or an invalid colour to keep the lexer's own.
QColor darkTone(const QString& description) {
    const QString d = description.toLower();
    for (const DarkTone& tone : kDarkTones) {
        if (d.contains(QLatin1String(tone.describes))) {
            return QColor::fromRgb(tone.colour);
        }
    }
    return {};
}

} // namespace

QColor SourceTheme::markerBackground(const QColor& colour, const QPalette& palette) {
    return isDarkPalette(palette) ? mix(colour, palette.color(QPalette::Base), 0.28) : colour;
}

void SourceTheme::apply(QsciScintilla* editor, const QPalette& palette) {
    const QColor paper = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const bool dark = isDarkPalette(palette);
    if (QsciLexer* lexer = editor->lexer()) {
        lexer->setDefaultPaper(paper);
        lexer->setDefaultColor(text);
        lexer->setPaper(paper, -1);
        for (int style = 0; style < kMaxStyles; ++style) {
            if (lexer->description(style).isEmpty()) {
                continue;
            }
            // The lexer's own colour where it reads on this paper (always, on white), else a dark-paper tone; either
            // is lifted until it reads.
            QColor colour = lexer->defaultColor(style);
            if (const QColor tone = darkTone(lexer->description(style)); dark && tone.isValid()) {
                colour = tone;
            }
            lexer->setColor(ensureContrast(colour, paper, 4.5), style);
        }
    }
    editor->setPaper(paper);
    editor->setColor(text);
    editor->setMarginsBackgroundColor(palette.color(QPalette::Window));
    editor->setMarginsForegroundColor(palette.color(QPalette::PlaceholderText));
    editor->setFoldMarginColors(palette.color(QPalette::Window), palette.color(QPalette::Window));
    editor->setCaretForegroundColor(text);
    editor->setCaretLineBackgroundColor(dark ? paper.lighter(135) : QColor(255, 250, 222));
    editor->setSelectionBackgroundColor(palette.color(QPalette::Highlight));
    editor->setSelectionForegroundColor(palette.color(QPalette::HighlightedText));
    editor->setMatchedBraceBackgroundColor(dark ? QColor(60, 90, 60) : QColor(200, 235, 200));
    editor->setMatchedBraceForegroundColor(text);
    editor->setIndentationGuidesBackgroundColor(paper);
    editor->setIndentationGuidesForegroundColor(palette.color(QPalette::Mid));
}

} // namespace kl::views
