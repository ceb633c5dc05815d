#include "gui/FocusRestorer.h"

#include <QApplication>
#include <QDialog>
#include <QEvent>
#include <QTimer>
#include <QWidget>
#include <QWindow>

namespace kl::app {

FocusRestorer::FocusRestorer(QWidget* window) : QObject(window), m_window(window) {
    qApp->installEventFilter(this);
    // Whatever took the keyboard away (a dialog closing, a popup), no window holding it is the symptom.
    connect(qApp, &QGuiApplication::focusWindowChanged, this, [this](QWindow* focus) {
        if (focus == nullptr) {
            QTimer::singleShot(0, this, &FocusRestorer::restore);
        }
    });
}

bool FocusRestorer::eventFilter(QObject* watched, QEvent* event) {
    const auto type = event->type();
    if (type != QEvent::Show && type != QEvent::Hide) {
        return false;
    }
    auto* dialog = qobject_cast<QDialog*>(watched);
    if (dialog == nullptr || !dialog->isWindow() || dialog->parentWidget() == nullptr ||
        dialog->parentWidget()->window() != m_window) {
        return false;
    }
    if (type == QEvent::Show) {
        if (QWidget* focus = QApplication::focusWidget(); focus != nullptr && focus->window() == m_window) {
            m_lastFocus = focus;
        }
    } else {
        // After the dialog's own hide handling, which may hand activation elsewhere (or nowhere).
        QTimer::singleShot(0, this, &FocusRestorer::restore);
    }
    return false;
}

void FocusRestorer::restore() {
    if (!m_window->isVisible() || QApplication::activeModalWidget() != nullptr) {
        return;
    }
    QWidget* active = QApplication::activeWindow();
    if (active != nullptr && active != m_window && active->isVisible()) {
        return; // another window (a second dialog, a detached dock) has the keyboard on purpose
    }
    m_window->activateWindow();
    QWidget* target = m_lastFocus && m_lastFocus->isVisible() ? m_lastFocus.data() : m_window->focusWidget();
    if (target != nullptr) {
        target->setFocus(Qt::ActiveWindowFocusReason);
    }
}

} // namespace kl::app
