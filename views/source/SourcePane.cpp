#include "source/SourcePane.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>
#include <QLabel>
#include <QVBoxLayout>

namespace kl::views {

SourcePane::SourcePane(Language language, const QString& emptyText, QWidget* parent)
    : QWidget(parent), m_emptyText(emptyText) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_title = new QLabel(this);
    m_title->setContentsMargins(6, 2, 6, 2);
    m_editor = new QsciScintilla(this);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QsciLexer* lexer = language == Language::Cuda ? static_cast<QsciLexer*>(new QsciLexerCPP(m_editor))
                                                  : static_cast<QsciLexer*>(new QsciLexerPython(m_editor));
    lexer->setDefaultFont(mono);
    lexer->setFont(mono);
    m_editor->setLexer(lexer);
    m_editor->setMarginType(0, QsciScintilla::NumberMargin);
    m_editor->setMarginWidth(0, QStringLiteral("00000"));
    m_editor->setFolding(QsciScintilla::BoxedTreeFoldStyle);
    m_editor->setCaretLineVisible(true);
    m_editor->setReadOnly(true);
    m_editor->setUtf8(true);
    layout->addWidget(m_title);
    layout->addWidget(m_editor, 1);
    clear();
}

void SourcePane::showSource(const QString& fileName, const QString& text) {
    m_fileName = fileName;
    m_title->setText(fileName);
    m_editor->setReadOnly(false);
    m_editor->setText(text);
    m_editor->setReadOnly(true);
}

void SourcePane::clear() {
    m_fileName.clear();
    m_title->setText(m_emptyText);
    m_editor->setReadOnly(false);
    m_editor->clear();
    m_editor->setReadOnly(true);
}

void SourcePane::showLine(int line) {
    if (line < 1) {
        return;
    }
    m_editor->setCursorPosition(line - 1, 0);
    m_editor->ensureLineVisible(line - 1);
    m_editor->setFocus();
}

QString SourcePane::text() const { return m_editor->text(); }

} // namespace kl::views
