#pragma once

#include <Qsci/qscilexerpython.h>

class QsciScintilla;

namespace kl::views {

/// Python highlighting for NKI kernels: the `nl`, `nisa` and `nki` modules as highlighted identifiers
/// (keyword set 2), and every `nl.xxx` / `nisa.xxx` call marked with an indicator by `markNkiCalls`.
class NkiLexer : public QsciLexerPython {
    Q_OBJECT
public:
    explicit NkiLexer(QObject* parent = nullptr);
    [[nodiscard]] const char* language() const override { return "NKI"; }
    [[nodiscard]] const char* keywords(int set) const override;
    [[nodiscard]] QColor defaultColor(int style) const override;

    static constexpr int kCallIndicator = 9;
    /// Defines the call indicator on `editor` and applies it to every `nl.`/`nisa.` call in its text.
    /// Returns how many calls it marked.
    static int markNkiCalls(QsciScintilla* editor);
};

} // namespace kl::views
