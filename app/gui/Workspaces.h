#pragma once

#include <QObject>
#include <QString>

class QActionGroup;
class QMainWindow;
class QMenu;

namespace kl::app {

/// Review, Teaching and Compare as switchable layouts of the main window's docks (View > Workspace,
/// Ctrl+Alt+1/2/3), so that the docks of one job do not pile into the others' columns and push the window
/// past the screen. Each workspace's layout is saved per user (QMainWindow::saveState under
/// "workspace/<name>/state") when the user leaves it and restored when they come back; a workspace never used
/// starts from its default set of docks. Whatever is shown, the window is kept within the screen's available
/// geometry: when the docks' minimum sizes would push it past, it is shrunk back and, where that is not
/// enough, docks sharing a side are stacked as tabs.
class Workspaces : public QObject {
    Q_OBJECT
public:
    enum class Kind { Review, Teaching, Compare };

    Workspaces(QMainWindow* window, QMenu* viewMenu);

    void switchTo(Kind kind);
    [[nodiscard]] Kind current() const { return m_current; }
    /// Saves the current workspace's layout (the owner calls it when the window closes).
    void saveCurrent() const;
    /// Restores the workspace used last (after the window's own state was restored).
    void restoreLast();
    [[nodiscard]] static QString name(Kind kind);
    [[nodiscard]] static bool fromName(const QString& name, Kind* kind);
    /// Shrinks the window into the available screen geometry (tabifying docks if their minimums demand it).
    void keepOnScreen();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyDefault(Kind kind);
    /// Tabs the lowest docks of a left or right side into the stack above them until the side's minimum
    /// heights fit `roomHeight`.
    void tabifyCrowdedSides(int roomHeight);
    /// Every side's visible docks as one tab stack (when the centre itself does not fit the screen).
    void tabifyEverySide();

    QMainWindow* m_window;
    QActionGroup* m_actions = nullptr;
    Kind m_current = Kind::Review;
    bool m_fitting = false;
};

} // namespace kl::app
