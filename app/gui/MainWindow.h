#pragma once

#include "gui/Theme.h"

#include <QMainWindow>

class QDockWidget;
class QLabel;
class QListWidget;
class QSplitter;

namespace kl::views {
class PlaceholderPane;
class SourcePane;
} // namespace kl::views

namespace kl::app {

class RecentFiles;

/// The main window: owns the panes and docks of DESIGN.md's layout, the menus, and window state that
/// persists between runs. It wires pages together; pages never know each other.
///
/// Layout: task queue (left dock) | CUDA and NKI sources over the timeline and its plots (centre) |
/// inspector, rubric and annotations (right docks) | problems (bottom dock).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Opens a task folder, a kernel file or a review file. Returns false (with the reason in the problems
    /// panel) when it cannot.
    bool openPath(const QString& path);
    [[nodiscard]] RecentFiles* recentFiles() const { return m_recent; }
    [[nodiscard]] views::SourcePane* cudaPane() const { return m_cudaPane; }
    [[nodiscard]] views::SourcePane* nkiPane() const { return m_nkiPane; }
    [[nodiscard]] QListWidget* problems() const { return m_problems; }
    [[nodiscard]] QListWidget* taskQueue() const { return m_taskQueue; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildCentre();
    void buildDocks();
    void buildMenus();
    void restoreWindowState();
    void saveWindowState() const;
    void resetLayout();
    void setTheme(Theme theme);
    bool openTaskFolder(const QString& folder);
    bool openKernelFile(const QString& file);
    void reportProblem(const QString& text, const QString& file = {}, int line = 0);
    void showAbout();
    void showShortcuts();
    void chooseTaskFolder();
    void chooseFile();

    QDockWidget* addPaneDock(const QString& title, const QString& objectName, QWidget* widget,
                             Qt::DockWidgetArea area);

    RecentFiles* m_recent = nullptr;
    QSplitter* m_centre = nullptr;
    QSplitter* m_sources = nullptr;
    QSplitter* m_timelineStack = nullptr;
    views::SourcePane* m_cudaPane = nullptr;
    views::SourcePane* m_nkiPane = nullptr;
    views::PlaceholderPane* m_timeline = nullptr;
    views::PlaceholderPane* m_plots = nullptr;
    QListWidget* m_taskQueue = nullptr;
    QListWidget* m_problems = nullptr;
    QDockWidget* m_problemsDock = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_statusSummary = nullptr;
    QByteArray m_defaultState;
};

} // namespace kl::app
