#include "gui/MainWindow.h"

#include "common/QtText.h"

#include "gui/FindingsController.h"
#include "gui/FocusRestorer.h"
#include "gui/NumericsController.h"
#include "gui/BatchReviewAction.h"
#include "gui/RecentFiles.h"
#include "gui/ReportExportDialog.h"
#include "gui/ReviewPaths.h"
#include "gui/ReviewController.h"
#include "gui/ReviewSession.h"
#include "gui/RunChoices.h"
#include "gui/RunJob.h"
#include "gui/SimulationRunner.h"
#include "gui/TeachingController.h"
#include "gui/TeamController.h"
#include "gui/TimingLog.h"
#include "gui/SourceLinkController.h"
#include "gui/TrustGate.h"
#include "gui/TrustedLocationsDialog.h"
#include "gui/WorkspaceTrust.h"
#include "gui/Workspaces.h"

#include "common/PlaceholderPane.h"
#include "common/ReadOnlyBanner.h"
#include "common/StartPage.h"
#include "common/TrustPanel.h"
#include "findings/FindingsPane.h"
#include "numerics/NumericsPane.h"
#include "review/AnnotationListPane.h"
#include "review/ScorecardPane.h"
#include "review/TaskQueueModel.h"
#include "review/TaskQueueView.h"
#include "plots/RunPlots.h"
#include "source/SourcePane.h"
#include "team/AgreementPane.h"
#include "timeline/TimeAxis.h"
#include "timeline/InspectorPane.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include "analysis/RangeStatistics.h"
#include "run/RunPipeline.h"
#include "hw/HardwareChoice.h"
#include "hw/ProfileLocator.h"
#include "output/ResultJson.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QVBoxLayout>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QUndoStack>
#include <QStatusBar>
#include <QStyle>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace kl::app {

using views::toQString;

namespace {

QString readAll(const std::filesystem::path& path) {
    auto text = core::readTextFile(path);
    return text ? toQString(*text) : QString();
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(QStringLiteral("KernelLens"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/kernellens.svg")));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    new FocusRestorer(this); // shortcuts keep working after a modal dialog closes
    m_recent = new RecentFiles(this);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openPath);
    m_runner = new SimulationRunner(this);
    m_trustGate = new TrustGate(this);
    connect(m_trustGate, &TrustGate::trustGiven, this, &MainWindow::startRun);
    connect(m_trustGate, &TrustGate::problem, this, [this](const QString& text) { reportProblem(text); });
    connect(m_trustGate->panel(), &views::TrustPanel::manageRequested, this, &MainWindow::showTrustedLocations);
    buildCentre();
    buildDocks();
    m_sourceLinks = new SourceLinkController(m_cudaPane, m_nkiPane, m_page->timeline(), this);
    addPaneDock(tr("Hot Lines"), QStringLiteral("hotLinesDock"), m_sourceLinks->hotLinesWidget(),
                Qt::LeftDockWidgetArea);
    connect(m_sourceLinks, &SourceLinkController::problem, this, &MainWindow::reportProblem);
    connect(m_sourceLinks, &SourceLinkController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    buildReview();
    buildFindings();
    buildNumerics();
    buildMenus();
    m_statusSummary = new QLabel(tr("No simulated run. Open a task folder (Ctrl+O) to begin."), this);
    // Permanent, so hover texts and transient messages (shown on the left) never hide the run's figures.
    statusBar()->addPermanentWidget(m_statusSummary);
    buildRunControls();
    connectRunSignals();
    resize(1280, 800);
    m_defaultState = saveState();
    restoreWindowState();
    if (const QString problem = m_trustGate->trust()->loadProblem(); !problem.isEmpty()) {
        reportProblem(problem);
    }
}

void MainWindow::buildReview() {
    m_review = new ReviewSession(this);
    m_sourceLinks->shareUndoStack(m_review->undoStack()); // one undo stack: Edit > Undo undoes link edits too
    // Before the controller opens the first task: a review made from trusted task folders is trusted.
    connect(m_review, &ReviewSession::opened, this, [this] {
        if (std::exchange(m_trustNewReview, false)) {
            m_trustGate->trustReview(*m_review->file());
        }
    });
    m_reviewController = new ReviewController(
        m_review, {this, m_taskQueue, m_annotationList, m_scorecard, m_page->timeline(), m_nkiPane, m_cudaPane}, this);
    connect(m_reviewController, &ReviewController::taskChosen, this, [this](const QString& folder) {
        openTaskFolder(folder, /*partOfReview=*/true);
        m_sourceLinks->setReview(m_review->file(), m_review->currentTask().value_or(0));
    });
    connect(m_review, &ReviewSession::closed, this, [this] {
        m_sourceLinks->setReview(nullptr, 0);
        m_readOnlyBanner->setReason({});
    });
    connect(m_review, &ReviewSession::opened, this,
            [this] { m_readOnlyBanner->setReason(m_review->readOnlyReason()); });
    connect(m_review, &ReviewSession::failed, this, [this](const QString& message) { reportProblem(message); });

    auto* agreement = new views::AgreementPane;
    // Its tables and buttons want 400 px of height; in a scroll area it shares the inspector's tab stack without
    // pushing the rubric and annotations below it off a 800 px screen.
    auto* agreementScroll = new QScrollArea;
    agreementScroll->setWidget(agreement);
    agreementScroll->setWidgetResizable(true);
    agreementScroll->setFrameShape(QFrame::NoFrame);
    auto* agreementDock =
        addPaneDock(tr("Agreement"), QStringLiteral("agreementDock"), agreementScroll, Qt::RightDockWidgetArea);
    if (auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspectorDock"))) {
        tabifyDockWidget(inspector, agreementDock);
        inspector->raise(); // tabifying brought the new tab forward; the inspector is what a first run needs
    }
    // The agreement comes forward for a team review only; otherwise the inspector stays in front.
    connect(m_review, &ReviewSession::opened, this, [this, agreementDock] {
        if (m_review->file()->team().isTeamReview().value_or(false)) {
            agreementDock->raise();
        } else if (auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspectorDock"))) {
            inspector->raise();
        }
    });
    m_team = new TeamController(m_review, m_reviewController, agreement, this);
    connect(m_team, &TeamController::openRequested, this, &MainWindow::openPath);
    connect(m_team, &TeamController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

void MainWindow::buildFindings() {
    m_findings = new FindingsController(m_review, m_reviewController, m_sourceLinks,
                                        {this, m_findingsPane, m_page->timeline(), m_nkiPane, m_cudaPane}, this);
    connect(m_runner, &SimulationRunner::findingsReady, m_findings, &FindingsController::setFindings);
    connect(m_findings, &FindingsController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

void MainWindow::buildNumerics() {
    m_numericsPane = new views::NumericsPane;
    m_numericsPane->setObjectName(QStringLiteral("numericsPane"));
    auto* dock = addPaneDock(tr("Numerics"), QStringLiteral("numericsDock"), m_numericsPane, Qt::BottomDockWidgetArea);
    tabifyDockWidget(findChild<QDockWidget*>(QStringLiteral("findingsDock")), dock);
    findChild<QDockWidget*>(QStringLiteral("findingsDock"))->raise();
    resizeDocks({dock}, {300}, Qt::Vertical); // the heat map needs some height
    m_numerics =
        new NumericsController(m_review, m_sourceLinks, m_trustGate, {this, m_numericsPane, m_page->timeline()}, this);
    connect(m_numerics, &NumericsController::trustNeeded, this, &MainWindow::startRun);
    connect(m_numerics, &NumericsController::problem, this, &MainWindow::reportProblem);
    connect(m_numerics, &NumericsController::finished, dock, &QDockWidget::raise);
    connect(m_numerics, &NumericsController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

void MainWindow::buildCentre() {
    m_cudaPane = new views::SourcePane(views::SourcePane::Language::Cuda, tr("CUDA source: open a task to see it"));
    m_nkiPane = new views::SourcePane(views::SourcePane::Language::Python, tr("NKI source: open a task to see it"));
    m_sources = new QSplitter(Qt::Horizontal);
    m_sources->setObjectName(QStringLiteral("sourcesSplitter"));
    m_sources->addWidget(m_cudaPane);
    m_sources->addWidget(m_nkiPane);

    m_page = new views::TimelinePage;

    m_centre = new QSplitter(Qt::Vertical);
    m_centre->setObjectName(QStringLiteral("centreSplitter"));
    m_timelineArea = new QStackedWidget;
    m_timelineArea->addWidget(m_page);
    m_timelineArea->addWidget(m_trustGate->panel());
    m_centre->addWidget(m_sources);
    m_centre->addWidget(m_timelineArea);
    m_centre->setStretchFactor(0, 2);
    m_centre->setStretchFactor(1, 3);
    m_startPage = new views::StartPage;
    connect(m_startPage, &views::StartPage::openRequested, this, &MainWindow::openPath);
    m_mainStack = new QStackedWidget;
    m_mainStack->addWidget(m_centre);
    m_mainStack->addWidget(m_startPage);
    m_readOnlyBanner = new views::ReadOnlyBanner;
    connect(m_readOnlyBanner, &views::ReadOnlyBanner::saveCopyRequested, this, &MainWindow::chooseSaveReviewAs);
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_readOnlyBanner);
    centralLayout->addWidget(m_mainStack, 1);
    setCentralWidget(central);
}

QDockWidget* MainWindow::addPaneDock(const QString& title, const QString& objectName, QWidget* widget,
                                     Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::buildDocks() {
    m_taskQueue = new views::TaskQueueView;
    m_taskQueue->setObjectName(QStringLiteral("taskQueue"));
    m_taskQueue->setMinimumSize(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 24, fontMetrics().height() * 4);
    addPaneDock(tr("Tasks"), QStringLiteral("tasksDock"), m_taskQueue, Qt::LeftDockWidgetArea);

    m_inspector = new views::InspectorPane;
    auto* inspector =
        addPaneDock(tr("Inspector"), QStringLiteral("inspectorDock"), m_inspector, Qt::RightDockWidgetArea);
    m_scorecard = new views::ScorecardPane;
    auto* rubric = addPaneDock(tr("Rubric"), QStringLiteral("rubricDock"), m_scorecard, Qt::RightDockWidgetArea);
    m_annotationList = new views::AnnotationListPane;
    auto* annotations =
        addPaneDock(tr("Annotations"), QStringLiteral("annotationsDock"), m_annotationList, Qt::RightDockWidgetArea);
    // The rubric and the annotations are read together while scoring: each gets its own part of the right
    // column, under the inspector (the agreement joins the inspector as a tab).
    splitDockWidget(inspector, rubric, Qt::Vertical);
    splitDockWidget(rubric, annotations, Qt::Vertical);

    // The findings table has six columns: it gets the window's width, below the centre.
    m_findingsPane = new views::FindingsPane;
    m_findingsPane->setObjectName(QStringLiteral("findingsPane"));
    auto* findings =
        addPaneDock(tr("Findings"), QStringLiteral("findingsDock"), m_findingsPane, Qt::BottomDockWidgetArea);

    m_problems = new QListWidget;
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problemsDock = addPaneDock(tr("Problems"), QStringLiteral("problemsDock"), m_problems, Qt::BottomDockWidgetArea);
    connect(m_problems, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const int line = item->data(Qt::UserRole).toInt();
        if (line > 0) {
            m_sourceLinks->showProblemLocation(item->data(Qt::UserRole + 1).toString(), line);
        }
    });
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("tasksDock")), inspector}, {220, 300}, Qt::Horizontal);
    tabifyDockWidget(findings, m_problemsDock); // Problems comes forward when there is something to report
    resizeDocks({findings}, {230}, Qt::Vertical);
    m_problemsDock->hide(); // shown when there is something to report
    findings->raise();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openTask = file->addAction(tr("&Open Task Folder..."), this, &MainWindow::chooseTaskFolder);
    openTask->setShortcut(QKeySequence::Open);
    QAction* openFile = file->addAction(tr("Open &File (Kernel or Review)..."), this, &MainWindow::chooseFile);
    openFile->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
    m_recent->attachMenu(file->addMenu(tr("Open &Recent")));
    file->addSeparator();
    file->addAction(tr("&New Review from Folder..."), this, &MainWindow::chooseReviewFolder)
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+N")));
    file->addAction(tr("New Review from &Batch Results..."), this, [this] {
        const QString path = newReviewFromBatchResults(this, m_review->reviewer());
        if (!path.isEmpty()) {
            openPath(path);
        }
    });
    file->addAction(tr("&Merge Reviews..."), this, [this] { m_team->chooseMerge(); })
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+M")));
    QAction* exportReport = file->addAction(tr("&Export Report..."), this, [this] {
        if (m_review->isOpen()) {
            showReportExportDialog(this, m_review->path(), m_trustGate->isTrusted(*m_review->file()));
        }
    });
    exportReport->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    exportReport->setEnabled(false);
    connect(m_review, &ReviewSession::opened, exportReport, [exportReport] { exportReport->setEnabled(true); });
    connect(m_review, &ReviewSession::closed, exportReport, [exportReport] { exportReport->setEnabled(false); });
    QAction* saveAs = file->addAction(tr("Save Review &As..."), this, &MainWindow::chooseSaveReviewAs);
    saveAs->setShortcut(QKeySequence::SaveAs);
    saveAs->setEnabled(false);
    connect(m_review, &ReviewSession::opened, saveAs, [saveAs] { saveAs->setEnabled(true); });
    connect(m_review, &ReviewSession::closed, saveAs, [saveAs] { saveAs->setEnabled(false); });
    file->addSeparator();
    file->addAction(tr("Trusted &Locations..."), this, &MainWindow::showTrustedLocations);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_review->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_review->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (auto* dock : findChildren<QDockWidget*>()) {
        m_viewMenu->addAction(dock->toggleViewAction());
    }
    m_viewMenu->addSeparator();
    auto* themes = new QActionGroup(this);
    QAction* light = m_viewMenu->addAction(tr("&Light Theme"), this, [this] { setTheme(Theme::Light); });
    QAction* dark = m_viewMenu->addAction(tr("&Dark Theme"), this, [this] { setTheme(Theme::Dark); });
    for (QAction* a : {light, dark}) {
        a->setCheckable(true);
        themes->addAction(a);
    }
    const Theme current = themeFromName(QSettings().value(QStringLiteral("theme")).toString());
    (current == Theme::Dark ? dark : light)->setChecked(true);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    m_viewMenu->addAction(tr("&Start Page"), this, &MainWindow::showStartPage)
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+H")));
    m_viewMenu->addSeparator();
    auto* colourings = new QActionGroup(this);
    using ColourBy = views::TimelineView::ColourBy;
    const std::pair<QString, ColourBy> kColourings[] = {{tr("Colour by &Engine"), ColourBy::Engine},
                                                        {tr("Colour by &Operation"), ColourBy::Operation},
                                                        {tr("Colour by Source &Line"), ColourBy::SourceLine}};
    for (const auto& [label, mode] : kColourings) {
        QAction* action =
            m_viewMenu->addAction(label, this, [this, mode = mode] { m_page->timeline()->setColourBy(mode); });
        action->setCheckable(true);
        action->setChecked(mode == ColourBy::Engine);
        colourings->addAction(action);
        connect(m_page->timeline(), &views::TimelineView::colourByChanged, action,
                [action, mode = mode](ColourBy now) { action->setChecked(now == mode); });
    }
    m_viewMenu->addSeparator();
    m_workspaces = new Workspaces(this, m_viewMenu);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    QAction* again = run->addAction(tr("&Simulate Again"), this, &MainWindow::startRun);
    again->setShortcut(QKeySequence::Refresh);
    QAction* cancel = run->addAction(tr("&Cancel"), m_runner, &SimulationRunner::cancel);
    cancel->setShortcut(QKeySequence(QStringLiteral("Ctrl+.")));
    QAction* numerics = run->addAction(tr("&Numerics..."), m_numerics, &NumericsController::runWithDialog);
    numerics->setShortcut(QKeySequence(QStringLiteral("Ctrl+F5")));
    numerics->setStatusTip(tr("Run the kernel on real values and compare it with the exact reference and the GPU"));
    run->addSeparator();
    m_runChoices = new RunChoices(this);
    m_runChoices->populate(run);
    connect(m_runChoices, &RunChoices::chosen, this, &MainWindow::startRun);

    m_reviewController->populateMenu(menuBar()->addMenu(tr("Re&view")));
    m_sourceLinks->populateMenu(menuBar()->addMenu(tr("&Links")));
    m_teaching = new TeachingController(this);
    m_teaching->attach(this, menuBar()->addMenu(tr("&Teaching")));
    connect(m_teaching, &TeachingController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(m_teaching, &TeachingController::whatIfRunChanged, m_page, &views::TimelinePage::showSecondRun);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts)
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About KernelLens"), this, &MainWindow::showAbout);
}

void MainWindow::restoreWindowState() {
    QSettings settings;
    m_firstStart = !settings.contains(QStringLiteral("window/state"));
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_workspaces->restoreLast();
    for (QSplitter* splitter : {m_centre, m_sources, m_page->splitter()}) {
        splitter->restoreState(settings.value(QStringLiteral("window/") + splitter->objectName()).toByteArray());
    }
    if (!settings.contains(QStringLiteral("window/") + m_page->splitter()->objectName())) {
        // First start: the plots get two fifths of the timeline's page (proportions; the splitter scales them),
        // so each plot is more than a strip; the lanes scroll.
        m_page->splitter()->setSizes({60, 40});
    }
    // The plots under the timeline as the user left them; on a first start on a short screen (1280x800) two of
    // the three, so each gets more than the minimum height (the DMA bandwidth is also in the DMA lanes).
    const QVariant plots = settings.value(QStringLiteral("window/plots"));
    const bool shortScreen = screen() != nullptr && screen()->availableGeometry().height() < 1000;
    for (int i = 0; i < views::RunPlots::kPlotCount; ++i) {
        const auto plot = static_cast<views::RunPlots::Plot>(i);
        const bool shown = plots.isValid() ? plots.toString().contains(QString::number(i))
                                           : !(shortScreen && plot == views::RunPlots::Plot::Dma);
        m_page->plots()->setPlotShown(plot, shown);
    }
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_firstStart) {
        // First start: the docks below the centre (findings, numerics, problems) get a fifth of the height, so the
        // timeline and its plots keep the rest; afterwards the user's layout is restored as they left it.
        m_firstStart = false;
        auto* findings = findChild<QDockWidget*>(QStringLiteral("findingsDock"));
        if (findings != nullptr && findings->isVisible()) {
            resizeDocks({findings}, {std::max(fontMetrics().height() * 9, height() / 5)}, Qt::Vertical);
        }
        // The right column: the rubric (the longest list) takes the most, inspector and annotations share the rest.
        const QList<QDockWidget*> right{findChild<QDockWidget*>(QStringLiteral("inspectorDock")),
                                        findChild<QDockWidget*>(QStringLiteral("rubricDock")),
                                        findChild<QDockWidget*>(QStringLiteral("annotationsDock"))};
        if (std::ranges::all_of(right, [](QDockWidget* d) { return d != nullptr && d->isVisible(); })) {
            const int column = height();
            resizeDocks(right, {column * 3 / 10, column * 4 / 10, column * 3 / 10}, Qt::Vertical);
            // Wide enough for the rubric's item names on two lines rather than four.
            resizeDocks({right.front()}, {std::max(300, width() / 5)}, Qt::Horizontal);
        }
    }
}

void MainWindow::saveWindowState() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_workspaces->saveCurrent();
    for (QSplitter* splitter : {m_centre, m_sources, m_page->splitter()}) {
        settings.setValue(QStringLiteral("window/") + splitter->objectName(), splitter->saveState());
    }
    QString plots;
    for (int i = 0; i < views::RunPlots::kPlotCount; ++i) {
        if (m_page->plots()->isPlotShown(static_cast<views::RunPlots::Plot>(i))) {
            plots += QString::number(i);
        }
    }
    settings.setValue(QStringLiteral("window/plots"), plots);
}

void MainWindow::resetLayout() {
    restoreState(m_defaultState);
    for (auto* dock : findChildren<QDockWidget*>()) {
        dock->show();
    }
    m_centre->setSizes({height() * 2 / 5, height() * 3 / 5});
    m_sources->setSizes({width() / 2, width() / 2});
}

void MainWindow::setTheme(Theme theme) {
    QSettings().setValue(QStringLiteral("theme"), themeName(theme));
    applyTheme(*qApp, theme);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_review->flushTimeSpent();
    saveWindowState();
    event->accept();
}

bool MainWindow::openPath(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists()) {
        reportProblem(tr("%1: no such file or folder").arg(path));
        return false;
    }
    bool opened = false;
    if (info.isDir()) {
        opened = openTaskFolder(info.absoluteFilePath());
    } else if (info.suffix() == QLatin1String("py")) {
        opened = openKernelFile(info.absoluteFilePath());
    } else if (info.suffix() == QLatin1String("klreview")) {
        opened = openReview(info.absoluteFilePath());
    } else if (info.suffix() == QLatin1String("json")) {
        return m_numerics->openDocument(info.absoluteFilePath()); // a numerics document: into the Numerics dock
    } else {
        reportProblem(tr("%1: not a task folder, an NKI kernel (.py), a review file (.klreview) or a numerics "
                         "document (.json)")
                          .arg(path));
    }
    if (opened) {
        m_recent->add(info.absoluteFilePath());
        m_mainStack->setCurrentWidget(m_centre);
    }
    return opened;
}

bool MainWindow::openReview(const QString& path) {
    QString error;
    if (!m_review->open(path, &error)) {
        reportProblem(error);
        QMessageBox::warning(this, tr("Open Review"), error);
        return false;
    }
    setWindowTitle(tr("%1 - KernelLens").arg(QFileInfo(path).fileName()));
    return true;
}

bool MainWindow::createReview(const QString& reviewPath, const QString& folder) {
    if (!m_reviewController->ensureReviewer()) {
        return false;
    }
    QString error;
    m_trustNewReview = m_trustGate->folderIsTrusted(folder);
    if (!m_review->createFromFolder(reviewPath, folder, QString(), &error)) {
        m_trustNewReview = false;
        reportProblem(error);
        return false;
    }
    m_recent->add(reviewPath);
    m_mainStack->setCurrentWidget(m_centre);
    setWindowTitle(tr("%1 - KernelLens").arg(QFileInfo(reviewPath).fileName()));
    return true;
}

void MainWindow::chooseReviewFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder of Task Folders"));
    if (folder.isEmpty()) {
        return;
    }
    const QString path =
        askReviewSavePath(this, tr("New Review File"), QFileInfo(folder).fileName() + QStringLiteral(".klreview"));
    if (!path.isEmpty()) {
        createReview(path, folder);
    }
}

void MainWindow::chooseSaveReviewAs() {
    if (!m_review->isOpen()) {
        return;
    }
    const QString path = askReviewSavePath(this, tr("Save Review As"), QFileInfo(m_review->path()).fileName());
    if (!path.isEmpty() && !saveReviewAs(path)) {
        QMessageBox::warning(this, tr("Save Review As"), m_lastSaveError);
    }
}

bool MainWindow::saveReviewAs(const QString& path) {
    // The copy holds the same kernels: trust given to the original carries over, nothing else does.
    m_trustNewReview = m_trustGate->isTrusted(*m_review->file());
    QString error;
    if (!m_review->saveCopyAs(path, &error)) {
        m_trustNewReview = false;
        reportProblem(error);
        m_lastSaveError = error;
        return false;
    }
    m_recent->add(path);
    setWindowTitle(tr("%1 - KernelLens").arg(QFileInfo(path).fileName()));
    statusBar()->showMessage(tr("Saved a copy as %1; you are now working in the copy").arg(path), 8000);
    return true;
}

void MainWindow::recordRunInReview(const core::RunOutcome& outcome) {
    if (!m_review->isOpen() || !m_review->currentTask()) {
        return;
    }
    std::string profileJson;
    if (auto profilePath = sim::ProfileLocator::resolve(outcome.hardware.spec, {core::dataRoot()})) {
        profileJson = core::readTextFile(*profilePath).value_or("");
    }
    // The figures and the wait summary, not the per-instruction table and series: a large kernel's whole result
    // runs to tens of MiB, and the review keeps a run to show its metrics (the timeline is re-simulated).
    m_review->recordRun(
        outcome.result->hardwareName, profileJson,
        sim::ResultJson::write(*outcome.result, {.instructions = false, .series = false, .indent = -1}));
}

bool MainWindow::openTaskFolder(const QString& folder, bool partOfReview) {
    auto spec = core::loadTaskSpec(folder.toStdString());
    if (!spec) {
        const auto& e = spec.error();
        reportProblem(toQString(e.message + (e.hint.empty() ? "" : " (" + e.hint + ")")), toQString(e.file), e.line);
        return false;
    }
    if (!partOfReview) {
        m_review->close(); // a task folder on its own is not part of the open review
        m_taskQueue->taskModel()->setLooseTask(toQString(spec->title));
        m_taskQueue->setCurrentRow(0);
    }
    m_nkiPane->showSource(toQString(spec->kernelFile.filename().string()), readAll(spec->kernelFile));
    QList<SourceLinkController::ExtraFile> extraFiles;
    for (const auto& extra : spec->extraFiles) {
        extraFiles.push_back({toQString(extra.lexically_relative(spec->folder).string()), toQString(extra.string())});
    }
    m_sourceLinks->setKernelFile(QFileInfo(toQString(spec->kernelFile.string())).absoluteFilePath(), extraFiles);
    if (spec->cudaFile.empty()) {
        m_cudaPane->clear();
    } else {
        m_cudaPane->showSource(toQString(spec->cudaFile.filename().string()), readAll(spec->cudaFile));
    }
    m_sourceLinks->sourcesShown();
    setWindowTitle(tr("%1 - KernelLens").arg(toQString(spec->title)));
    m_runTarget = folder;
    m_runInReview = partOfReview;
    m_runChoices->reset(); // automatic: the task's hardware and LNC degree, else the defaults
    startRun();
    return true;
}

bool MainWindow::openKernelFile(const QString& file) {
    // A kernel inside a task folder is that task: its task.json knows the arguments.
    const QString folder = QFileInfo(file).absolutePath();
    if (QFileInfo::exists(folder + QStringLiteral("/task.json"))) {
        auto spec = core::loadTaskSpec(folder.toStdString());
        if (spec && QFileInfo(toQString(spec->kernelFile.string())) == QFileInfo(file)) {
            return openTaskFolder(folder);
        }
    }
    // A bare kernel needs its tensor arguments; they are asked once and remembered per file.
    const QString key =
        QStringLiteral("kernelArgs/") + QString::fromLatin1(QFileInfo(file).absoluteFilePath().toUtf8().toBase64());
    QString args = QSettings().value(key).toString();
    if (args.isNull()) {
        bool ok = false;
        args = QInputDialog::getText(this, tr("Kernel Arguments"),
                                     tr("Tensor arguments of the kernel in call order, e.g.\n"
                                        "a=4096x1024:float32 b=4096x1024:float32"),
                                     QLineEdit::Normal, QString(), &ok);
        if (!ok) {
            return false;
        }
        QSettings().setValue(key, args);
    }
    m_kernelArgs = args.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_nkiPane->showSource(QFileInfo(file).fileName(), readAll(file.toStdString()));
    m_sourceLinks->setKernelFile(QFileInfo(file).absoluteFilePath());
    m_cudaPane->clear();
    m_sourceLinks->sourcesShown();
    setWindowTitle(tr("%1 - KernelLens").arg(QFileInfo(file).fileName()));
    m_runTarget = file;
    m_runInReview = false;
    startRun();
    return true;
}

void MainWindow::reportProblem(const QString& text, const QString& file, int line) {
    QString label = text;
    if (!file.isEmpty()) {
        label = line > 0 ? QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(text)
                         : QStringLiteral("%1: %2").arg(file, text);
    }
    auto* item = new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxWarning), label);
    item->setData(Qt::UserRole, line);
    item->setData(Qt::UserRole + 1, file);
    m_problems->addItem(item);
    m_problemsDock->show();
    m_problemsDock->raise();
    statusBar()->showMessage(label, 8000);
}

void MainWindow::buildRunControls() {
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0); // tracing has no measurable fraction: a busy indicator
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop tracing or simulating (Ctrl+.)"));
    connect(m_cancel, &QPushButton::clicked, m_runner, &SimulationRunner::cancel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    setRunning(false);
}

void MainWindow::connectRunSignals() {
    connect(m_runner, &SimulationRunner::stageChanged, this, [this](const QString& text) {
        m_statusSummary->setText(text);
        m_page->showMessage(tr("Working"), text);
    });
    connect(m_runner, &SimulationRunner::finished, this, &MainWindow::showRun);
    connect(m_runner, &SimulationRunner::failed, this, &MainWindow::runFailed);
    connect(m_runner, &SimulationRunner::cancelled, this, [this] {
        setRunning(false);
        m_statusSummary->setText(tr("Cancelled. Press F5 to simulate again."));
        m_findings->clear(tr("The run was cancelled: no findings. Press F5 to simulate again."));
        m_page->showMessage(tr("Cancelled"), tr("The run was cancelled. Press F5 to start it again."));
    });
    auto* timeline = m_page->timeline();
    connect(timeline, &views::TimelineView::instructionSelected, this, [this](qint64 index) {
        if (index < 0 || !m_run) {
            m_inspector->showNothing();
            return;
        }
        m_inspector->showInstruction(static_cast<std::uint32_t>(index));
        const auto line = m_run->result->timeline.line(static_cast<std::size_t>(index));
        if (line > 0) {
            m_sourceLinks->showKernelLocation(m_run->result->timeline.file(static_cast<std::size_t>(index)),
                                              static_cast<int>(line));
            m_page->timeline()->setFocus();
        }
    });
    connect(timeline, &views::TimelineView::spillSelected, this,
            [this](qint64 transfer) { m_inspector->showSpill(static_cast<std::uint32_t>(transfer)); });
    connect(timeline, &views::TimelineView::rangeSelected, this, [this](qint64 t0, qint64 t1) {
        if (m_run) {
            m_inspector->showRange(core::computeRangeStatistics(*m_run->result, t0, t1));
        }
    });
    connect(m_inspector, &views::InspectorPane::instructionLinkActivated, this, [this](qint64 index) {
        auto* view = m_page->timeline();
        view->selectInstruction(static_cast<std::uint32_t>(index));
        const auto& tl = m_run->result->timeline;
        const auto i = static_cast<std::size_t>(index);
        const auto span = view->visibleEnd() - view->visibleStart();
        const auto centre = (tl.mainStartPs(i) + tl.endPs(i)) / 2;
        view->setVisibleRange(centre - span / 2, centre + span / 2);
    });
    connect(m_inspector, &views::InspectorPane::sourceLineLinkActivated, m_nkiPane, &views::SourcePane::showLine);
}

void MainWindow::setRunning(bool running) {
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
}

void MainWindow::startRun() {
    if (m_runTarget.isEmpty()) {
        return;
    }
    const TrustGate::Target target{m_runTarget, m_runInReview ? m_review->file() : nullptr, m_kernelArgs};
    m_numerics->setTarget(target, m_runInReview);
    if (!m_trustGate->mayRun(target)) {
        m_runner->cancel(); // a run of what was open before must not land on this target
        setRunning(false);
        m_run.reset();
        const bool waiting = m_trustGate->isWaiting();
        m_page->showMessage(tr("Not run"), waiting ? tr("Waiting for you to trust it.") : tr("See Problems."));
        m_timelineArea->setCurrentWidget(waiting ? static_cast<QWidget*>(m_trustGate->panel()) : m_page);
        m_statusSummary->setText(
            waiting ? tr("Not run: it is not trusted yet. Press Trust and Run in the timeline area to simulate it.")
                    : tr("Not run: see Problems."));
        return;
    }
    m_timelineArea->setCurrentWidget(m_page);
    TimingLog::mark("run started");
    setRunning(true);
    m_runner->start(runRequestFor(m_runTarget, m_kernelArgs, m_runChoices->hardware(), m_runChoices->lnc()));
}

void MainWindow::showRun(const std::shared_ptr<const core::RunOutcome>& outcome) {
    TimingLog::mark("run delivered");
    const long long shownFrom = TimingLog::msSinceProcessStart();
    setRunning(false);
    m_run = outcome;
    // Everything that grows with the instructions was built on the worker (RunDisplay): this only installs it.
    RunDisplay display = m_runner->takeDisplay();
    m_page->setRun(outcome->result, outcome->ir, std::move(display.rows), std::move(display.plots));
    TimingLog::phase("timeline and plots installed");
    m_inspector->setRun(outcome->ir, outcome->result);
    m_sourceLinks->showRun(outcome->result, std::move(display.lineCosts));
    TimingLog::phase("inspector and hot lines");
    m_reviewController->setRun(outcome->result);
    m_findings->setRun(outcome, m_runInReview);
    m_numerics->setTimedRun(outcome);
    m_teaching->setBaseRun(outcome, m_runTarget, toQString(outcome->hardware.spec));
    TimingLog::phase("review, findings, numerics, lessons");
    recordRunInReview(*outcome);
    TimingLog::phase("run recorded in the review");
    // The front end also prints a one-line tally on stderr; only its warnings belong in Problems.
    for (const QString& line : toQString(outcome->warnings).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.contains(QLatin1String("warning"), Qt::CaseInsensitive)) {
            reportProblem(line);
        }
    }
    m_statusSummary->setText(statusSummary());
    m_page->timeline()->setFocus();
    if (TimingLog::enabled()) {
        const long long now = TimingLog::msSinceProcessStart();
        std::fprintf(stderr, "kernellens: run shown at %lld ms (%lld ms on the GUI thread, %zu instructions)\n", now,
                     now - shownFrom, outcome->ir->instructions().size());
        // The next paint of the timeline puts this run on screen.
        connect(
            m_page->timeline(), &views::TimelineView::runPainted, this, [] { TimingLog::mark("first timeline paint"); },
            Qt::SingleShotConnection);
    }
}

QString MainWindow::statusSummary() const {
    if (!m_run) {
        return m_statusSummary->text();
    }
    const auto& s = m_run->result->summary;
    const auto pct = [&](sim::Engine e) { return s.engine(e).activePct; };
    const sim::HardwareReason reason = m_run->hardware.reason;
    const QString why = reason == sim::HardwareReason::Requested
                            ? tr("Run > Hardware")
                            : toQString(std::string(sim::hardwareReasonText(reason)));
    // Times in the unit the timeline's ruler uses, with the digits the run's length resolves.
    const auto time = [&](sim::TimePs t) { return toQString(views::formatTimeFor(t, s.totalPs)); };
    return tr("%1 on %2 (%3): total %4 | %5 instructions | TensorE %6% VectorE %7% ScalarE %8% GpSimdE %9% | "
              "MFU %10% | exposed DMA %11")
        .arg(toQString(m_run->result->kernelName), toQString(m_run->result->hardwareName), why)
        .arg(time(s.totalPs))
        .arg(s.instructionCount)
        .arg(pct(sim::Engine::Tensor), 0, 'f', 1)
        .arg(pct(sim::Engine::Vector), 0, 'f', 1)
        .arg(pct(sim::Engine::Scalar), 0, 'f', 1)
        .arg(pct(sim::Engine::GpSimd), 0, 'f', 1)
        .arg(s.mfuPct, 0, 'f', 1)
        .arg(time(s.dmaExposedPs));
}

void MainWindow::runFailed(const QString& message, const QString& file, int line) {
    setRunning(false);
    reportProblem(message, file, line);
    m_page->showMessage(tr("The kernel could not be simulated"),
                        (file.isEmpty() ? QString() : QStringLiteral("%1:%2: ").arg(file).arg(line)) + message);
    m_statusSummary->setText(tr("Failed: see Problems"));
    m_findings->clear(tr("The kernel could not be simulated, so there are no findings (see Problems)."));
    if (line > 0) {
        m_sourceLinks->showProblemLocation(file, line);
    }
}

void MainWindow::showStartPage() {
    QList<views::StartPage::Entry> examples;
    const QDir dir(QString::fromStdString(core::examplesDir().string()));
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        auto spec = core::loadTaskSpec(dir.filePath(name).toStdString());
        if (!spec) {
            continue;
        }
        QString description = toQString(spec->description).simplified();
        if (description.size() > 150) {
            description = description.left(147) + QStringLiteral("...");
        }
        examples.push_back({toQString(spec->title), description, dir.filePath(name)});
    }
    m_startPage->setExamples(examples);
    m_startPage->setRecent(m_recent->entries());
    m_mainStack->setCurrentWidget(m_startPage);
}

bool MainWindow::isShowingStartPage() const {
    return m_mainStack->currentWidget() == m_startPage;
}

bool MainWindow::isAwaitingTrust() const {
    return m_timelineArea->currentWidget() == m_trustGate->panel();
}

void MainWindow::showTrustedLocations() {
    TrustedLocationsDialog dialog(m_trustGate->trust(), this);
    dialog.exec();
}

void MainWindow::chooseTaskFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Task Folder"));
    if (!folder.isEmpty()) {
        openPath(folder);
    }
}

void MainWindow::chooseFile() {
    const QString file = QFileDialog::getOpenFileName(this, tr("Open Kernel or Review"), QString(),
                                                      tr("KernelLens files (*.py *.klreview);;All files (*)"));
    if (!file.isEmpty()) {
        openPath(file);
    }
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About KernelLens"),
        tr("<h3>KernelLens %1</h3><p>A workbench for reviewing, optimizing and teaching NKI kernels for AWS "
           "Trainium. It runs a kernel on a simulated NeuronCore and shows its timeline, SBUF/PSUM occupancy "
           "and DMA/compute overlap beside the CUDA kernel it was migrated from.</p>"
           "<p>Built with Qt %2, QCustomPlot and QScintilla.</p>")
            .arg(QStringLiteral(KL_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::showShortcuts() {
    static const char* const kKeys[][2] = {
        {"Ctrl+O / Ctrl+Shift+O", "Open a task folder / a kernel or review file"},
        {"Ctrl+Shift+N", "New review from a folder of task folders"},
        {"Ctrl+E", "Export a report of the open review"},
        {"F5 / Ctrl+.", "Simulate again / cancel the run"},
        {"Ctrl+F5", "Run the kernel on values (numerics) against the references"},
        {"W / S", "Zoom the timeline in / out"},
        {"A / D", "Pan the timeline left / right"},
        {"F", "Fit the whole run"},
        {"Ctrl+F", "Find instructions (timeline) or text (source pane)"},
        {"Esc", "Clear the timeline selection"},
        {"M or Ctrl+M", "Annotate the selected range, instruction or source lines"},
        {"Ctrl+Enter", "Save the annotation being written"},
        {"N / P", "Next / previous annotation"},
        {"Alt+Down / Alt+Up", "Next / previous task of the review"},
        {"Ctrl+D", "Mark the task done"},
        {"Ctrl+Z / Ctrl+Shift+Z", "Undo / redo a review edit"},
        {"Enter / A / D", "Findings: go to the evidence / accept / dismiss the selected finding"},
        {"Ctrl+L / Ctrl+Shift+L", "Link / unlink the selected CUDA and NKI lines"},
        {"Ctrl+G", "Go to line in a source pane"},
        {"F1", "This list"},
    };
    QString rows;
    for (const auto& [key, what] : kKeys) {
        rows += QStringLiteral("<tr><td style='padding-right:16px'><b>%1</b></td><td>%2</td></tr>")
                    .arg(QString::fromLatin1(key), tr(what));
    }
    QMessageBox::information(this, tr("Keyboard Shortcuts"), QStringLiteral("<table>%1</table>").arg(rows));
}

} // namespace kl::app
