#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QsciScintilla;

namespace kl::views {

/// The small find bar under a source pane: Enter finds the next match, Shift+Enter the previous,
/// Escape closes it and gives the focus back to the editor.
class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QsciScintilla* editor, QWidget* parent = nullptr);
    /// Shows the bar with the editor's selection (if any) as the text to find.
    void open();
    /// Finds the next (or previous) match from the caret, wrapping; false when there is none.
    bool find(const QString& text, bool forward = true);
    [[nodiscard]] QLineEdit* field() const { return m_field; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QsciScintilla* m_editor;
    QLineEdit* m_field = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace kl::views
