#include "source/FindBar.h"

#include <Qsci/qsciscintilla.h>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace kl::views {

FindBar::FindBar(QsciScintilla* editor, QWidget* parent) : QWidget(parent), m_editor(editor) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 2);
    layout->setSpacing(4);
    m_field = new QLineEdit(this);
    m_field->setPlaceholderText(tr("Find (Enter: next, Shift+Enter: previous, Esc: close)"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    auto* previous = new QToolButton(this);
    previous->setText(QStringLiteral("\u25B2"));
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(this);
    next->setText(QStringLiteral("\u25BC"));
    next->setToolTip(tr("Next match (Enter)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Esc)"));
    m_status = new QLabel(this);
    layout->addWidget(m_field, 1);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_status);
    layout->addWidget(close);
    connect(previous, &QToolButton::clicked, this, [this] { find(m_field->text(), false); });
    connect(next, &QToolButton::clicked, this, [this] { find(m_field->text(), true); });
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        m_editor->setFocus();
    });
    hide();
}

void FindBar::open() {
    if (m_editor->hasSelectedText() && !m_editor->selectedText().contains(QLatin1Char('\n'))) {
        m_field->setText(m_editor->selectedText());
    }
    show();
    m_field->setFocus();
    m_field->selectAll();
}

bool FindBar::find(const QString& text, bool forward) {
    if (text.isEmpty()) {
        m_status->clear();
        return false;
    }
    int line = 0;
    int index = 0;
    m_editor->getCursorPosition(&line, &index);
    if (!forward && m_editor->hasSelectedText()) {
        int l1 = 0, i1 = 0, l2 = 0, i2 = 0;
        m_editor->getSelection(&l1, &i1, &l2, &i2);
        line = l1;
        index = i1;
    }
    const bool found = m_editor->findFirst(text, false, false, false, true, forward, line, index, true);
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

bool FindBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            find(m_field->text(), !(key->modifiers() & Qt::ShiftModifier));
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            m_editor->setFocus();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace kl::views
