// The window as an expert meets it (issue 21): shortcuts survive a modal dialog, the dark theme reaches the
// source panes and the plots with readable contrast, the left docks keep a usable size, the rubric and the
// annotations are visible at once.
#include "gui/MainWindow.h"
#include "gui/Theme.h"
#include "gui/WorkspaceTrust.h"
#include "gui/Workspaces.h"
#include "result/SyntheticRun.h"

#include "common/Contrast.h"
#include "compare/CompareView.h"
#include "plots/RunPlots.h"
#include "source/SourcePane.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimelinePage.h"

#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QScreen>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using kl::app::MainWindow;

class WorkbenchWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("WorkbenchWindowTest"));
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }

    void shortcutsWorkAfterAModalDialogWithoutAClick() {
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(!window.isShowingStartPage());
        {
            QDialog dialog(&window);
            QTimer::singleShot(50, &dialog, &QDialog::accept);
            dialog.exec();
        }
        QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget*>(&window));
        // The key goes to the window as the platform would deliver it, not to a widget chosen by the test.
        QTest::keyClick(window.windowHandle(), Qt::Key_H, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY2(window.isShowingStartPage(), "View > Start Page (Ctrl+Shift+H) did not fire after the dialog");
    }

    void darkThemeReachesSourcePanesAndPlots() {
        auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
        kl::app::applyTheme(*app, kl::app::Theme::Dark);
        MainWindow window;
        const QColor base = window.palette().color(QPalette::Base);
        QVERIFY(kl::views::isDarkPalette(window.palette()));
        for (auto* pane : {window.nkiPane(), window.cudaPane()}) {
            QsciScintilla* editor = pane->editor();
            QsciLexer* lexer = editor->lexer();
            QCOMPARE(lexer->paper(0), base);
            for (int style = 0; style < 128; ++style) {
                if (!lexer->description(style).isEmpty()) {
                    const double ratio = kl::views::contrastRatio(lexer->color(style), base);
                    QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 style %2 (%3): %4")
                                                          .arg(editor->objectName(), lexer->description(style))
                                                          .arg(style)
                                                          .arg(ratio)));
                    // Strings and docstrings: a soft tone, not the light theme's red lifted into a glaring one.
                    const QColor c = lexer->color(style);
                    const bool reddish = c.hslSaturationF() > 0.4 && (c.hslHue() < 20 || c.hslHue() > 340);
                    QVERIFY2(
                        !(lexer->description(style).contains(QLatin1String("string"), Qt::CaseInsensitive) && reddish),
                        qPrintable(QStringLiteral("%1 style %2 is %3")
                                       .arg(editor->objectName(), lexer->description(style), c.name())));
                }
            }
        }
        QCustomPlot* plot = window.timelinePage()->plots()->plot();
        QCOMPARE(plot->axisRect(0)->backgroundBrush().color(), base);
        QCOMPARE(plot->axisRect(0)->axis(QCPAxis::atLeft)->tickLabelColor(), window.palette().color(QPalette::Text));
        for (std::uint16_t lane = 0; lane < 8; ++lane) {
            QVERIFY(kl::views::contrastRatio(kl::views::TimelineColours::laneColour(lane, window.palette()), base) >=
                    3.0);
        }
        // Back to light: the panes follow without a restart.
        kl::app::applyTheme(*app, kl::app::Theme::Light);
        QTRY_VERIFY(!kl::views::isDarkPalette(window.palette()));
        QCOMPARE(window.nkiPane()->editor()->lexer()->paper(0), window.palette().color(QPalette::Base));
        QCOMPARE(plot->axisRect(0)->backgroundBrush().color(), window.palette().color(QPalette::Base));
    }

    void bottomDocksLeaveTheTimelineMostOfTheHeightOnFirstStart() {
        QSettings().remove(QStringLiteral("window/state"));
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* findings = window.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
        QVERIFY(findings != nullptr && findings->isVisible());
        QTRY_VERIFY2(
            findings->height() <= window.height() / 4,
            qPrintable(QStringLiteral("findings dock %1 of %2 px").arg(findings->height()).arg(window.height())));
    }

    void leftDocksKeepAUsableSize() {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        for (const char* name : {"tasksDock", "hotLinesDock"}) {
            auto* dock = window.findChild<QDockWidget*>(QString::fromLatin1(name));
            QVERIFY(dock != nullptr);
            const QSize minimum = dock->widget()->minimumSizeHint().expandedTo(dock->widget()->minimumSize());
            QVERIFY2(minimum.width() >= 150, name);
            QVERIFY2(minimum.height() >= 3 * window.fontMetrics().height(), name);
        }
    }

    void reviewShowsRubricAndAnnotationsAtOnce() {
        // First start (no saved layout), on the screen this test runs on (1280x800, and 1920x1080 as a second
        // ctest entry): the rubric and the annotations each get their own visible part of the right column.
        QSettings().clear();
        MainWindow window;
        const QRect available = window.screen()->availableGeometry();
        window.resize(available.size());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        auto dock = [&](const char* name) { return window.findChild<QDockWidget*>(QString::fromLatin1(name)); };
        QDockWidget* rubric = dock("rubricDock");
        QDockWidget* annotations = dock("annotationsDock");
        QDockWidget* inspector = dock("inspectorDock");
        QCOMPARE(window.workspaces()->current(), kl::app::Workspaces::Kind::Review);

        QVERIFY(!window.tabifiedDockWidgets(rubric).contains(annotations));
        QVERIFY(window.tabifiedDockWidgets(inspector).contains(dock("agreementDock")));
        const int lines = window.fontMetrics().height();
        for (QDockWidget* d : {rubric, annotations, inspector}) {
            QVERIFY2(d->isVisible() && !d->visibleRegion().isEmpty(), qPrintable(d->objectName()));
            QCOMPARE(window.dockWidgetArea(d), Qt::RightDockWidgetArea);
            QVERIFY2(d->width() >= 280,
                     qPrintable(QStringLiteral("%1: %2 px wide").arg(d->objectName()).arg(d->width())));
            QVERIFY2(d->height() >= 6 * lines,
                     qPrintable(QStringLiteral("%1: %2 px").arg(d->objectName()).arg(d->height())));
        }
        // A short screen shows two plots under the timeline, so each has more than the minimum height.
        const bool shortScreen = available.height() < 1000;
        QCOMPARE(window.timelinePage()->plots()->isPlotShown(kl::views::RunPlots::Plot::Dma), !shortScreen);
        QVERIFY(!rubric->geometry().intersects(annotations->geometry()));
        QVERIFY(rubric->height() >= annotations->height()); // the rubric is the longer list
        QVERIFY2(available.contains(window.frameGeometry()), qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                                                            .arg(window.frameGeometry().width())
                                                                            .arg(window.frameGeometry().height())
                                                                            .arg(available.width())
                                                                            .arg(available.height())));
    }

    void workspacesSwitchLayoutsAndStayOnScreen() {
        MainWindow window;
        const QRect available = window.screen()->availableGeometry();
        window.resize(available.size() * 9 / 10);
        window.show();
        auto* workspaces = window.workspaces();
        auto dock = [&](const char* name) { return window.findChild<QDockWidget*>(QString::fromLatin1(name)); };
        workspaces->switchTo(kl::app::Workspaces::Kind::Compare);
        QVERIFY(dock("compareDock")->isVisible());
        QVERIFY(dock("whatIfDock")->isVisible());
        QVERIFY(!dock("rubricDock")->isVisible());
        // Every dock of every job at once: the window may not grow past the screen.
        for (const char* name : {"tasksDock", "hotLinesDock", "rubricDock", "annotationsDock", "findingsDock"}) {
            dock(name)->show();
        }
        QTest::qWait(50);
        QVERIFY2(window.frameGeometry().width() <= available.width() &&
                     window.frameGeometry().height() <= available.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(window.frameGeometry().width())
                                .arg(window.frameGeometry().height())
                                .arg(available.width())
                                .arg(available.height())));
        // Leaving a workspace saves it per user; coming back restores it.
        dock("rubricDock")->hide();
        workspaces->switchTo(kl::app::Workspaces::Kind::Review);
        QVERIFY(QSettings().contains(QStringLiteral("workspace/compare/state")));
        QVERIFY(dock("rubricDock")->isVisible());
        QVERIFY(!dock("compareDock")->isVisible());
        workspaces->switchTo(kl::app::Workspaces::Kind::Compare);
        QVERIFY(dock("compareDock")->isVisible());
        QVERIFY(!dock("rubricDock")->isVisible());
        QCOMPARE(QSettings().value(QStringLiteral("workspace/current")).toString(), QStringLiteral("compare"));
    }

    void theEmptyCompareDockIsShortAndGrowsWhenRunsArrive() {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.workspaces()->switchTo(kl::app::Workspaces::Kind::Compare);
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("compareDock"));
        auto* view = qobject_cast<kl::views::CompareView*>(dock->widget());
        QVERIFY(dock->isVisible() && view != nullptr && !view->isShowingRuns());
        // Nothing to compare yet: the timeline above keeps the height.
        QTRY_VERIFY2(dock->height() < window.height() / 4, qPrintable(QString::number(dock->height())));
        const kl::views::CompareSide a{kl::sim::makeSyntheticRun(100), QStringLiteral("A"), {}, {}};
        const kl::views::CompareSide b{kl::sim::makeSyntheticRun(200), QStringLiteral("B"), {}, {}};
        view->setRuns(a, b);
        QTRY_VERIFY2(dock->height() >= window.height() * 2 / 5, qPrintable(QString::number(dock->height())));
    }
};

QTEST_MAIN(WorkbenchWindowTest)
#include "WorkbenchWindowTest.moc"
