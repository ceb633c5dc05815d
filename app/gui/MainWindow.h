#pragma once

#include "gui/Theme.h"

#include <QMainWindow>

class QActionGroup;
class QDockWidget;
class QLabel;
class QListWidget;
class QSplitter;
class QProgressBar;
class QStackedWidget;
class QPushButton;

namespace kl::core {
struct RunOutcome;
}

namespace kl::views {
class AnnotationListPane;
class FindingsPane;
class NumericsPane;
class InspectorPane;
class ReadOnlyBanner;
class ScorecardPane;
class TaskQueueView;
class SourcePane;
class StartPage;
class TimelinePage;
} // namespace kl::views

namespace kl::app {

class FindingsController;
class NumericsController;
class RecentFiles;
class RunChoices;
class SimulationRunner;
class SourceLinkController;
class TrustGate;
class ReviewSession;
class ReviewController;
class TeachingController;
class TeamController;
class Workspaces;

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
    /// Shows the start page (bundled examples and recent files) in place of the workspace.
    void showStartPage();
    [[nodiscard]] views::StartPage* startPage() const { return m_startPage; }
    [[nodiscard]] bool isShowingStartPage() const;
    [[nodiscard]] RecentFiles* recentFiles() const { return m_recent; }
    [[nodiscard]] views::SourcePane* cudaPane() const { return m_cudaPane; }
    [[nodiscard]] views::SourcePane* nkiPane() const { return m_nkiPane; }
    [[nodiscard]] QListWidget* problems() const { return m_problems; }
    [[nodiscard]] views::TaskQueueView* taskQueue() const { return m_taskQueue; }
    [[nodiscard]] views::TimelinePage* timelinePage() const { return m_page; }
    [[nodiscard]] views::InspectorPane* inspector() const { return m_inspector; }
    [[nodiscard]] SimulationRunner* runner() const { return m_runner; }
    [[nodiscard]] SourceLinkController* sourceLinks() const { return m_sourceLinks; }
    [[nodiscard]] ReviewSession* review() const { return m_review; }
    [[nodiscard]] TeamController* team() const { return m_team; }
    [[nodiscard]] ReviewController* reviewController() const { return m_reviewController; }
    [[nodiscard]] TeachingController* teaching() const { return m_teaching; }
    [[nodiscard]] views::AnnotationListPane* annotationList() const { return m_annotationList; }
    [[nodiscard]] views::ScorecardPane* scorecard() const { return m_scorecard; }
    [[nodiscard]] TrustGate* trustGate() const { return m_trustGate; }
    [[nodiscard]] views::FindingsPane* findingsPane() const { return m_findingsPane; }
    [[nodiscard]] FindingsController* findings() const { return m_findings; }
    [[nodiscard]] Workspaces* workspaces() const { return m_workspaces; }
    [[nodiscard]] NumericsController* numerics() const { return m_numerics; }
    [[nodiscard]] views::NumericsPane* numericsPane() const { return m_numericsPane; }
    /// True while the timeline area shows the trust prompt instead of a run (nothing has run).
    [[nodiscard]] bool isAwaitingTrust() const;
    /// File > Trusted Locations: the trust decisions, with Remove.
    void showTrustedLocations();
    /// Creates a review file holding every task folder inside `folder` and opens it.
    bool createReview(const QString& reviewPath, const QString& folder);
    /// Save As: copies the open review to `path` and continues there (also how a read-only review is edited).
    bool saveReviewAs(const QString& path);
    [[nodiscard]] QString statusSummary() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildCentre();
    void buildDocks();
    void buildMenus();
    void buildReview();
    void buildFindings();
    void buildNumerics();
    void restoreWindowState();
    void saveWindowState() const;
    void resetLayout();
    void setTheme(Theme theme);
    bool openTaskFolder(const QString& folder, bool partOfReview = false);
    bool openReview(const QString& path);
    void chooseReviewFolder();
    void chooseSaveReviewAs();
    void recordRunInReview(const core::RunOutcome& outcome);
    bool openKernelFile(const QString& file);
    void reportProblem(const QString& text, const QString& file = {}, int line = 0);
    void showAbout();
    void showShortcuts();
    void chooseTaskFolder();
    void chooseFile();
    void buildRunControls();
    void connectRunSignals();
    void startRun(); ///< runs m_runTarget once the trust gate allows it, else shows the trust prompt
    void showRun(const std::shared_ptr<const core::RunOutcome>& outcome);
    void runFailed(const QString& message, const QString& file, int line);
    void setRunning(bool running);

    QDockWidget* addPaneDock(const QString& title, const QString& objectName, QWidget* widget, Qt::DockWidgetArea area);

    RecentFiles* m_recent = nullptr;
    QStackedWidget* m_mainStack = nullptr;
    views::StartPage* m_startPage = nullptr;
    QSplitter* m_centre = nullptr;
    QSplitter* m_sources = nullptr;
    views::SourcePane* m_cudaPane = nullptr;
    views::SourcePane* m_nkiPane = nullptr;
    views::TimelinePage* m_page = nullptr;
    QStackedWidget* m_timelineArea = nullptr; ///< the timeline page, or the trust prompt in its place
    TrustGate* m_trustGate = nullptr;
    views::InspectorPane* m_inspector = nullptr;
    SimulationRunner* m_runner = nullptr;
    SourceLinkController* m_sourceLinks = nullptr;
    ReviewSession* m_review = nullptr;
    ReviewController* m_reviewController = nullptr;
    TeachingController* m_teaching = nullptr;
    views::AnnotationListPane* m_annotationList = nullptr;
    views::ScorecardPane* m_scorecard = nullptr;
    views::FindingsPane* m_findingsPane = nullptr;
    FindingsController* m_findings = nullptr;
    views::NumericsPane* m_numericsPane = nullptr;
    NumericsController* m_numerics = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QString m_runTarget;                ///< the task folder or kernel file of the current run, for F5
    RunChoices* m_runChoices = nullptr; ///< Run > Hardware and Logical Cores
    QStringList m_kernelArgs;           ///< --arg specs for a kernel file opened without a task folder
    bool m_runInReview = false;         ///< m_runTarget is a task of the open review (trust is the review's)
    views::ReadOnlyBanner* m_readOnlyBanner = nullptr;
    TeamController* m_team = nullptr;
    QString m_lastSaveError;       ///< why the last saveReviewAs failed, for the dialog that asked
    bool m_trustNewReview = false; ///< the review being created comes from trusted task folders
    bool m_firstStart = false;     ///< no saved layout: the first show sizes the bottom docks
    std::shared_ptr<const core::RunOutcome> m_run;
    views::TaskQueueView* m_taskQueue = nullptr;
    QListWidget* m_problems = nullptr;
    QDockWidget* m_problemsDock = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_statusSummary = nullptr;
    QByteArray m_defaultState;
    Workspaces* m_workspaces = nullptr;
};

} // namespace kl::app
