#pragma once

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QsciScintilla;
class QToolButton;

namespace kl::views {

class FindBar;

/// A linked range as a pane paints it: lines [first, last] (1-based) in palette colour `colour`.
struct PaneRange {
    int first = 0;
    int last = 0;
    QColor colour;
    QString toolTip;
};

/// One source pane (CUDA or NKI): title bar naming the file, QScintilla with line numbers, folding,
/// a find bar (Ctrl+F), go to line (Ctrl+G), read-only unless "Edit" is toggled.
///
/// It paints what others decide (it never knows links, runs or the timeline): a line highlight with an
/// arrow marker (`highlightLines`), linked ranges in their colours and a hovered partner range
/// (`setLinkRanges`, `setPartnerRange`), and leaves the heat margins to HeatMargin. It reports what the
/// user does: `linesSelected` when the user moves the caret or selects lines (never for programmatic
/// moves), `lineHovered` as the mouse moves over the text.
///
/// Markers: 0..kLinkColours-1 linked-range backgrounds, then partner, highlight background, arrow; the
/// heat markers (HeatMargin) follow.
class SourcePane : public QWidget {
    Q_OBJECT
public:
    enum class Language { Cuda, Python };
    static constexpr int kLinkColours = 12;
    static constexpr int kPartnerMarker = kLinkColours;
    static constexpr int kHighlightMarker = kLinkColours + 1;
    static constexpr int kArrowMarker = kLinkColours + 2;
    static constexpr int kFirstFreeMarker = kLinkColours + 3;
    static constexpr int kArrowMargin = 3;
    static constexpr int kFoldMargin = 4;

    SourcePane(Language language, const QString& emptyText, QWidget* parent = nullptr);

    void showSource(const QString& fileName, const QString& text);
    void clear();
    /// Scrolls to a 1-based line and highlights it (background and arrow marker).
    void showLine(int line);
    /// Highlights lines [first, last] and scrolls the first into view; (0, 0) clears.
    void highlightLines(int first, int last);
    [[nodiscard]] std::pair<int, int> highlightedLines() const { return m_highlight; }
    void goToLine(int line);
    void setLinkRanges(const std::vector<PaneRange>& ranges);
    /// The range linked to what the mouse is over in the other pane; (0, 0) clears.
    void setPartnerRange(int first, int last);
    [[nodiscard]] std::pair<int, int> partnerRange() const { return m_partner; }
    /// Background colour of a line as the link markers paint it (invalid when none), for tests.
    [[nodiscard]] QColor linkColourAt(int line) const;
    [[nodiscard]] bool hasMarker(int line, int marker) const;

    void setEditable(bool editable);
    [[nodiscard]] bool isEditable() const;
    /// The lines the user selected, or the caret line: 1-based, first <= last; (0, 0) when empty.
    [[nodiscard]] std::pair<int, int> selectedLines() const;
    /// Adds an action to the editor's context menu (after the standard ones).
    void addContextAction(QAction* action);

    /// A chooser in the title bar among several files (a kernel package's files; hidden for one file).
    /// `fileChosen` reports the user's choice; setting it from code does not.
    void setFileChoices(const QStringList& names, int current);
    void setCurrentFileChoice(int index);
    [[nodiscard]] int currentFileChoice() const; ///< -1 when the chooser is hidden
    [[nodiscard]] QString fileName() const { return m_fileName; }
    [[nodiscard]] QString text() const;
    [[nodiscard]] int lineCount() const;
    [[nodiscard]] QsciScintilla* editor() const { return m_editor; }
    [[nodiscard]] FindBar* findBar() const { return m_findBar; }

signals:
    void linesSelected(int first, int last);
    void lineHovered(int line); ///< 0 when the mouse left the text
    void fileChosen(int index); ///< the user picked another file in the chooser
    void sourceChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void defineMarkers();
    void applyPalette(); ///< the editor, its lexer and markers in the current palette (SourceTheme)
    void clearMarkers(int marker);
    void emitSelection();
    void askGoToLine();
    [[nodiscard]] int lineAtY(const QPoint& pos) const;

    QLabel* m_title = nullptr;
    QToolButton* m_editButton = nullptr;
    QComboBox* m_fileChooser = nullptr;
    QsciScintilla* m_editor = nullptr;
    FindBar* m_findBar = nullptr;
    QString m_emptyText;
    QString m_fileName;
    std::vector<QAction*> m_contextActions;
    std::vector<QColor> m_linkColours; ///< colour held by each link marker
    std::pair<int, int> m_highlight{0, 0};
    std::pair<int, int> m_partner{0, 0};
    std::pair<int, int> m_lastEmitted{0, 0};
    int m_hoverLine = 0;
    int m_programmatic = 0; ///< > 0 while the pane itself moves the caret
};

} // namespace kl::views
