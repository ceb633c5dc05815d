#pragma once

#include <QObject>
#include <QPointer>

class QWidget;

namespace kl::app {

/// Gives the keyboard back to the main window when one of its dialogs closes. Without a window manager (Xvfb,
/// some tiling setups) nothing re-activates the main window after a modal dialog, so its shortcuts (W/S/A/D,
/// F5, Ctrl+...) stayed dead until a click. Watches the application for dialogs of `window` appearing (and
/// remembers the focused widget) and disappearing (re-activates the window and restores that focus).
class FocusRestorer : public QObject {
    Q_OBJECT
public:
    explicit FocusRestorer(QWidget* window);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void restore();

    QWidget* m_window;
    QPointer<QWidget> m_lastFocus;
};

} // namespace kl::app
