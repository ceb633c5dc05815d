#pragma once

#include <QWidget>

class QLabel;
class QsciScintilla;

namespace kl::views {

/// One read-only source pane (CUDA or NKI) with a title bar naming the file. Highlighting by language;
/// linking, heat margins and editing arrive with the source-linking work.
class SourcePane : public QWidget {
    Q_OBJECT
public:
    enum class Language { Cuda, Python };

    SourcePane(Language language, const QString& emptyText, QWidget* parent = nullptr);

    void showSource(const QString& fileName, const QString& text);
    void clear();
    /// Scrolls to a 1-based line and puts the caret on it.
    void showLine(int line);
    [[nodiscard]] QString fileName() const { return m_fileName; }
    [[nodiscard]] QString text() const;
    [[nodiscard]] QsciScintilla* editor() const { return m_editor; }

private:
    QLabel* m_title = nullptr;
    QsciScintilla* m_editor = nullptr;
    QString m_emptyText;
    QString m_fileName;
};

} // namespace kl::views
