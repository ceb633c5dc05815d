#include "source/SourcePane.h"

#include "source/CudaLexer.h"
#include "source/FindBar.h"
#include "source/NkiLexer.h"
#include "source/SourceTheme.h"

#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>
#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace kl::views {

namespace {

/// Keys the pane and the main window use that QScintilla binds to editing commands by default.
void releaseKeys(QsciScintilla* editor) {
    const QKeyCombination combos[] = {Qt::CTRL | Qt::Key_F, Qt::CTRL | Qt::Key_G, Qt::CTRL | Qt::Key_L,
                                      Qt::CTRL | Qt::SHIFT | Qt::Key_L, Qt::CTRL | Qt::Key_K};
    for (const QKeyCombination combo : combos) {
        const int key = combo.toCombined();
        while (QsciCommand* command = editor->standardCommands()->boundTo(key)) {
            if (command->key() == key) {
                command->setKey(0);
            } else {
                command->setAlternateKey(0);
            }
        }
    }
}

} // namespace

SourcePane::SourcePane(Language language, const QString& emptyText, QWidget* parent)
    : QWidget(parent), m_emptyText(emptyText) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(0, 0, 4, 0);
    m_title = new QLabel(this);
    m_title->setContentsMargins(6, 2, 6, 2);
    m_editButton = new QToolButton(this);
    m_editButton->setText(tr("Edit"));
    m_editButton->setCheckable(true);
    m_editButton->setAutoRaise(true);
    m_editButton->setToolTip(tr("Allow editing this source (read-only by default)"));
    m_fileChooser = new QComboBox(this);
    m_fileChooser->setObjectName(QStringLiteral("fileChooser"));
    m_fileChooser->setToolTip(tr("Files of the kernel's package that recorded instructions (Ctrl+Shift+O)"));
    m_fileChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_fileChooser->hide();
    connect(m_fileChooser, &QComboBox::activated, this, &SourcePane::fileChosen);
    auto* chooseFile = new QAction(tr("Choose Kernel File"), this);
    chooseFile->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
    chooseFile->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(chooseFile, &QAction::triggered, this, [this] {
        if (m_fileChooser->isVisible()) {
            m_fileChooser->showPopup();
        }
    });
    addAction(chooseFile);
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_fileChooser);
    titleRow->addWidget(m_editButton);

    m_editor = new QsciScintilla(this);
    m_editor->setObjectName(language == Language::Cuda ? QStringLiteral("cudaEditor") : QStringLiteral("nkiEditor"));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QsciLexer* lexer = language == Language::Cuda ? static_cast<QsciLexer*>(new CudaLexer(m_editor))
                                                  : static_cast<QsciLexer*>(new NkiLexer(m_editor));
    lexer->setDefaultFont(mono);
    lexer->setFont(mono);
    m_editor->setLexer(lexer);
    m_editor->setMarginsFont(mono);
    m_editor->setMarginType(0, QsciScintilla::NumberMargin);
    m_editor->setMarginWidth(0, QStringLiteral("00000"));
    for (int margin = 0; margin < kArrowMargin; ++margin) {
        m_editor->setMarginMarkerMask(margin, 0);
    }
    m_editor->setMarginWidth(1, 0);
    m_editor->setMarginWidth(2, 0);
    m_editor->setMarginType(kArrowMargin, QsciScintilla::SymbolMargin);
    m_editor->setMarginMarkerMask(kArrowMargin, 1 << kArrowMarker);
    m_editor->setMarginWidth(kArrowMargin, 14);
    m_editor->setFolding(QsciScintilla::BoxedTreeFoldStyle, kFoldMargin);
    m_editor->setCaretLineVisible(true);
    m_editor->setReadOnly(true);
    m_editor->setUtf8(true);
    m_editor->viewport()->setMouseTracking(true);
    m_editor->viewport()->installEventFilter(this);
    m_editor->installEventFilter(this);
    releaseKeys(m_editor);
    defineMarkers();
    applyPalette();

    m_findBar = new FindBar(m_editor, this);
    layout->addLayout(titleRow);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_findBar);

    auto* find = new QAction(tr("Find..."), this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QAction::triggered, m_findBar, &FindBar::open);
    auto* goTo = new QAction(tr("Go to Line..."), this);
    goTo->setShortcut(QKeySequence(QStringLiteral("Ctrl+G")));
    goTo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(goTo, &QAction::triggered, this, &SourcePane::askGoToLine);
    addAction(find);
    addAction(goTo);

    connect(m_editButton, &QToolButton::toggled, this, &SourcePane::setEditable);
    connect(m_editor, &QsciScintilla::cursorPositionChanged, this, [this] { emitSelection(); });
    connect(m_editor, &QsciScintilla::selectionChanged, this, [this] { emitSelection(); });
    connect(m_editor, &QsciScintilla::textChanged, this, [this] {
        if (m_programmatic == 0) {
            emit sourceChanged();
        }
    });
    clear();
}

void SourcePane::defineMarkers() {
    m_linkColours.assign(kLinkColours, QColor());
    for (int i = 0; i < kLinkColours; ++i) {
        m_editor->markerDefine(QsciScintilla::Background, i);
    }
    m_editor->markerDefine(QsciScintilla::Background, kPartnerMarker);
    m_editor->markerDefine(QsciScintilla::Background, kHighlightMarker);
    m_editor->markerDefine(QsciScintilla::RightArrow, kArrowMarker);
    m_editor->setMarkerBackgroundColor(QColor(30, 90, 200), kArrowMarker);
    m_editor->setMarkerForegroundColor(QColor(30, 90, 200), kArrowMarker);
}

void SourcePane::applyPalette() {
    SourceTheme::apply(m_editor, palette());
    m_editor->setMarkerBackgroundColor(SourceTheme::markerBackground(QColor(255, 200, 60), palette()), kPartnerMarker);
    m_editor->setMarkerBackgroundColor(SourceTheme::markerBackground(QColor(150, 190, 255), palette()),
                                       kHighlightMarker);
    for (int marker = 0; marker < kLinkColours; ++marker) {
        if (m_linkColours[static_cast<std::size_t>(marker)].isValid()) {
            m_editor->setMarkerBackgroundColor(
                SourceTheme::markerBackground(m_linkColours[static_cast<std::size_t>(marker)], palette()), marker);
        }
    }
}

void SourcePane::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
}

void SourcePane::showSource(const QString& fileName, const QString& text) {
    ++m_programmatic;
    m_fileName = fileName;
    m_title->setText(fileName);
    const bool editable = isEditable();
    m_editor->setReadOnly(false);
    m_editor->setText(text);
    m_editor->setReadOnly(!editable);
    m_highlight = m_partner = m_lastEmitted = {0, 0};
    if (qobject_cast<NkiLexer*>(m_editor->lexer()) != nullptr) {
        NkiLexer::markNkiCalls(m_editor);
    }
    --m_programmatic;
}

void SourcePane::clear() {
    ++m_programmatic;
    m_fileName.clear();
    m_title->setText(m_emptyText);
    m_editor->setReadOnly(false);
    m_editor->clear();
    m_editor->setReadOnly(!isEditable());
    m_highlight = m_partner = m_lastEmitted = {0, 0};
    --m_programmatic;
}

void SourcePane::showLine(int line) {
    highlightLines(line, line);
}

void SourcePane::highlightLines(int first, int last) {
    clearMarkers(kHighlightMarker);
    clearMarkers(kArrowMarker);
    m_highlight = {0, 0};
    if (first < 1 || first > lineCount()) {
        return;
    }
    last = std::clamp(last, first, lineCount());
    m_highlight = {first, last};
    for (int line = first; line <= last; ++line) {
        m_editor->markerAdd(line - 1, kHighlightMarker);
    }
    m_editor->markerAdd(first - 1, kArrowMarker);
    ++m_programmatic;
    m_editor->setCursorPosition(first - 1, 0);
    m_lastEmitted = {first, first};
    --m_programmatic;
    m_editor->ensureLineVisible(last - 1);
    m_editor->ensureLineVisible(first - 1);
}

void SourcePane::goToLine(int line) {
    if (line < 1 || line > lineCount()) {
        return;
    }
    m_editor->setCursorPosition(line - 1, 0);
    m_editor->ensureLineVisible(line - 1);
    m_editor->setFocus();
}

void SourcePane::askGoToLine() {
    int line = 0;
    int index = 0;
    m_editor->getCursorPosition(&line, &index);
    bool ok = false;
    const int target = QInputDialog::getInt(this, tr("Go to Line"), tr("Line (1-%1):").arg(lineCount()), line + 1, 1,
                                            std::max(1, lineCount()), 1, &ok);
    if (ok) {
        goToLine(target);
    }
}

void SourcePane::clearMarkers(int marker) {
    m_editor->markerDeleteAll(marker);
}

void SourcePane::setLinkRanges(const std::vector<PaneRange>& ranges) {
    for (int i = 0; i < kLinkColours; ++i) {
        clearMarkers(i);
    }
    std::fill(m_linkColours.begin(), m_linkColours.end(), QColor());
    for (const PaneRange& range : ranges) {
        auto slot = std::find(m_linkColours.begin(), m_linkColours.end(), range.colour);
        if (slot == m_linkColours.end()) {
            slot = std::find(m_linkColours.begin(), m_linkColours.end(), QColor());
        }
        if (slot == m_linkColours.end()) {
            slot = m_linkColours.begin() + (&range - ranges.data()) % kLinkColours;
        }
        const int marker = static_cast<int>(slot - m_linkColours.begin());
        *slot = range.colour;
        m_editor->setMarkerBackgroundColor(SourceTheme::markerBackground(range.colour, palette()), marker);
        for (int line = std::max(1, range.first); line <= std::min(range.last, lineCount()); ++line) {
            m_editor->markerAdd(line - 1, marker);
        }
    }
}

void SourcePane::setPartnerRange(int first, int last) {
    if (m_partner == std::pair{first, last}) {
        return;
    }
    clearMarkers(kPartnerMarker);
    m_partner = {first, last};
    for (int line = std::max(1, first); line >= 1 && line <= std::min(last, lineCount()); ++line) {
        m_editor->markerAdd(line - 1, kPartnerMarker);
    }
}

bool SourcePane::hasMarker(int line, int marker) const {
    return line >= 1 && (m_editor->markersAtLine(line - 1) & (1U << marker)) != 0;
}

QColor SourcePane::linkColourAt(int line) const {
    QColor colour;
    for (int i = 0; i < kLinkColours; ++i) {
        if (hasMarker(line, i)) {
            colour = m_linkColours[static_cast<std::size_t>(i)];
        }
    }
    return colour;
}

void SourcePane::setEditable(bool editable) {
    m_editor->setReadOnly(!editable);
    if (m_editButton->isChecked() != editable) {
        m_editButton->setChecked(editable);
    }
}

bool SourcePane::isEditable() const {
    return m_editButton->isChecked();
}

std::pair<int, int> SourcePane::selectedLines() const {
    if (lineCount() == 0 || m_editor->text().isEmpty()) {
        return {0, 0};
    }
    if (m_editor->hasSelectedText()) {
        int l1 = 0, i1 = 0, l2 = 0, i2 = 0;
        m_editor->getSelection(&l1, &i1, &l2, &i2);
        if (i2 == 0 && l2 > l1) {
            --l2; // a selection that ends at the start of a line does not include it
        }
        return {l1 + 1, l2 + 1};
    }
    int line = 0;
    int index = 0;
    m_editor->getCursorPosition(&line, &index);
    return {line + 1, line + 1};
}

void SourcePane::emitSelection() {
    if (m_programmatic > 0) {
        return;
    }
    const auto lines = selectedLines();
    if (lines == m_lastEmitted || lines.first == 0) {
        return;
    }
    m_lastEmitted = lines;
    emit linesSelected(lines.first, lines.second);
}

void SourcePane::addContextAction(QAction* action) {
    m_contextActions.push_back(action);
}

bool SourcePane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_editor->viewport()) {
        if (event->type() == QEvent::MouseMove) {
            const int line = lineAtY(static_cast<QMouseEvent*>(event)->position().toPoint());
            if (line != m_hoverLine) {
                m_hoverLine = line;
                emit lineHovered(line);
            }
        } else if (event->type() == QEvent::Leave && m_hoverLine != 0) {
            m_hoverLine = 0;
            emit lineHovered(0);
        }
    }
    if (event->type() == QEvent::ContextMenu && (watched == m_editor || watched == m_editor->viewport())) {
        auto* menu = m_editor->createStandardContextMenu();
        if (menu == nullptr) {
            menu = new QMenu(this);
        }
        if (!m_contextActions.empty()) {
            menu->addSeparator();
            for (QAction* action : m_contextActions) {
                menu->addAction(action);
            }
        }
        menu->addSeparator();
        for (QAction* action : actions()) {
            menu->addAction(action);
        }
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(static_cast<QContextMenuEvent*>(event)->globalPos());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

int SourcePane::lineAtY(const QPoint& pos) const {
    // Anywhere along a line counts (QsciScintilla::lineAt wants the pointer near a character).
    const long position =
        m_editor->SendScintilla(QsciScintilla::SCI_POSITIONFROMPOINT, static_cast<unsigned long>(std::max(0, pos.x())),
                                static_cast<long>(pos.y()));
    int line = 0;
    int index = 0;
    m_editor->lineIndexFromPosition(static_cast<int>(position), &line, &index);
    const long top =
        m_editor->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, m_editor->positionFromLineIndex(line, 0));
    if (pos.y() < top || pos.y() >= top + m_editor->textHeight(line) || lineCount() == 0) {
        return 0;
    }
    return line + 1;
}

QString SourcePane::text() const {
    return m_editor->text();
}

int SourcePane::lineCount() const {
    return m_fileName.isEmpty() && m_editor->text().isEmpty() ? 0 : m_editor->lines();
}

void SourcePane::setFileChoices(const QStringList& names, int current) {
    const QSignalBlocker block(m_fileChooser);
    m_fileChooser->clear();
    m_fileChooser->addItems(names);
    m_fileChooser->setCurrentIndex(current);
    m_fileChooser->setVisible(names.size() > 1);
}

void SourcePane::setCurrentFileChoice(int index) {
    const QSignalBlocker block(m_fileChooser);
    m_fileChooser->setCurrentIndex(index);
}

int SourcePane::currentFileChoice() const {
    return m_fileChooser->isVisible() ? m_fileChooser->currentIndex() : -1;
}

} // namespace kl::views
