// Panes of the first hour (issue 21): a lesson's note leaves with its comparison; the start page scrolls by
// pixel; the hot lines keep room for several rows; a what-if run stacks under the base run on one time axis.
#include "result/SyntheticRun.h"

#include "common/StartPage.h"
#include "plots/RunPlots.h"
#include "compare/CompareView.h"
#include "source/HotLinesView.h"
#include "timeline/SecondRunPane.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <qcustomplot.h>

#include <QListWidget>
#include <QMenu>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

class WorkbenchPanesTest : public QObject {
    Q_OBJECT

private slots:
    void lessonNoteIsClearedWhenTheComparisonChanges() {
        kl::views::CompareView view;
        const kl::views::CompareSide a{kl::sim::makeSyntheticRun(100), QStringLiteral("A"), {}, {}};
        const kl::views::CompareSide b{kl::sim::makeSyntheticRun(200), QStringLiteral("B"), {}, {}};
        view.setRuns(a, b);
        view.setNote(QStringLiteral("Hoisting halves the DMA here"), 0, 1000);
        QVERIFY(view.hasNote());
        view.setRuns(b, a); // the user picked another comparison
        QVERIFY(!view.hasNote());
        view.setNote(QStringLiteral("again"), 0, 1000);
        view.setSingleRun(a, {}, {});
        QVERIFY(!view.hasNote());
        view.setNote(QStringLiteral("again"), 0, 1000);
        view.clear(QStringLiteral("Running..."));
        QVERIFY(!view.hasNote());
    }

    void anEmptyCompareViewIsOnlyItsHeadlineUntilRunsArrive() {
        kl::views::CompareView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.isShowingRuns());
        QVERIFY(!view.timelineA()->isVisible());
        // A few lines of text: an empty dock must not ask for half the window.
        QVERIFY2(view.sizeHint().height() < 150, qPrintable(QString::number(view.sizeHint().height())));
        QSignalSpy shown(&view, &kl::views::CompareView::runsShown);
        const kl::views::CompareSide a{kl::sim::makeSyntheticRun(100), QStringLiteral("A"), {}, {}};
        const kl::views::CompareSide b{kl::sim::makeSyntheticRun(200), QStringLiteral("B"), {}, {}};
        view.setRuns(a, b);
        QVERIFY(view.isShowingRuns());
        QVERIFY(view.timelineA()->isVisible() && view.timelineB()->isVisible());
        QCOMPARE(shown.count(), 1);
        view.setRuns(b, a); // already shown: the owner is not asked for room again
        QCOMPARE(shown.count(), 1);
        view.clear(QStringLiteral("Running A and B..."));
        QVERIFY(!view.isShowingRuns()); // the old comparison is not left under the new one's progress
        view.setSingleRun(a, {}, {});
        QVERIFY(view.isShowingRuns());
        QCOMPARE(shown.count(), 2);
    }

    void startPageScrollsByPixel() {
        kl::views::StartPage page;
        for (const char* name : {"startExamples", "startRecent"}) {
            auto* list = page.findChild<QListWidget*>(QString::fromLatin1(name));
            QVERIFY(list != nullptr);
            QCOMPARE(list->verticalScrollMode(), QAbstractItemView::ScrollPerPixel);
        }
    }

    void whatIfRunStacksUnderTheBaseOnOneTimeAxis() {
        kl::views::TimelinePage page;
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setRun(kl::sim::makeSyntheticRun(100));
        QVERIFY(page.secondRun()->isHidden());
        // The what-if run is twice as long: the shared axis must reach its end from either view.
        page.showSecondRun(kl::sim::makeSyntheticRun(200),
                           QStringLiteral("What-if: softmax on trn1 with dma.queues 16 -> 4"));
        QVERIFY(page.secondRun()->isVisible());
        QCOMPARE(page.secondRun()->title(), QStringLiteral("What-if: softmax on trn1 with dma.queues 16 -> 4"));
        kl::views::TimelineView* base = page.timeline();
        kl::views::TimelineView* second = page.secondRun()->timeline();
        QCOMPARE(second->visibleStart(), base->visibleStart());
        QCOMPARE(second->visibleEnd(), base->visibleEnd());
        base->zoomBy(4.0, 0.25);
        QCOMPARE(second->visibleStart(), base->visibleStart());
        QCOMPARE(second->visibleEnd(), base->visibleEnd());
        second->fit(); // fits both runs, and the base follows
        QVERIFY(second->visibleEnd() >= second->rows()->endTime());
        QCOMPARE(base->visibleStart(), second->visibleStart());
        QCOMPARE(base->visibleEnd(), second->visibleEnd());
        // Same axis: a time sits at the same x in both (both views are as wide).
        QCOMPARE(second->xOf(150'000), base->xOf(150'000));

        QSignalSpy removed(&page, &kl::views::TimelinePage::secondRunRemoved);
        QTest::mouseClick(page.secondRun()->removeButton(), Qt::LeftButton);
        QCOMPARE(removed.count(), 1);
        QVERIFY(page.secondRun()->isHidden());
        const auto before = second->visibleEnd();
        base->zoomBy(2.0);
        QCOMPARE(second->visibleEnd(), before); // unlinked once removed

        page.showSecondRun(kl::sim::makeSyntheticRun(50), QStringLiteral("again"));
        QVERIFY(!page.secondRun()->isHidden());
        page.setRun(kl::sim::makeSyntheticRun(100)); // a new base run: the old what-if says nothing about it
        QVERIFY(page.secondRun()->isHidden());
    }

    void fewerPlotsGetMoreHeightEach() {
        using Plot = kl::views::RunPlots::Plot;
        kl::views::RunPlots plots;
        plots.resize(1000, 220);
        plots.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plots));
        plots.setResult(kl::sim::makeSyntheticRun(200));
        const int before = plots.plotHeight(Plot::Memory);
        QCOMPARE(plots.legend()->itemCount(), 5);
        const int minimumBefore = plots.minimumSizeHint().height();
        // Hidden from the Plots menu in the legend row's corner, as a user would.
        QMenu* menu = plots.plotsButton()->menu();
        QVERIFY(menu != nullptr);
        QCOMPARE(menu->actions().size(), kl::views::RunPlots::kPlotCount);
        menu->actions().at(static_cast<int>(Plot::Dma))->trigger();
        QVERIFY(!plots.isPlotShown(Plot::Dma));
        QCOMPARE(plots.plotHeight(Plot::Dma), 0);
        QVERIFY2(plots.plotHeight(Plot::Memory) > before * 13 / 10,
                 qPrintable(QStringLiteral("%1 -> %2 px").arg(before).arg(plots.plotHeight(Plot::Memory))));
        QCOMPARE(plots.legend()->itemCount(), 4); // no key for a plot not shown
        QVERIFY(plots.minimumSizeHint().height() < minimumBefore);
        // The time labels stay under the last plot shown; the shared axis keeps its ticks.
        QVERIFY(plots.plot()->axisRect(plots.plot()->axisRectCount() - 1)->axis(QCPAxis::atBottom)->tickLabels());
        QVERIFY(!plots.tickPositions().isEmpty());
        plots.setSelectedRange(1000, 50'000);
        QCOMPARE(plots.shadedRangePs().first, 1000.0);
        // The last plot cannot go: something must carry the time axis.
        plots.setPlotShown(Plot::Memory, false);
        plots.setPlotShown(Plot::Overlap, false);
        QVERIFY(plots.isPlotShown(Plot::Overlap));
        QVERIFY(menu->actions().at(static_cast<int>(Plot::Overlap))->isChecked());
        plots.setPlotShown(Plot::Dma, true);
        QVERIFY(plots.isPlotShown(Plot::Dma));
        QVERIFY(menu->actions().at(static_cast<int>(Plot::Dma))->isChecked());
    }

    void lessonNoteFollowsTheTheme() {
        kl::views::CompareView view;
        QPalette dark = view.palette();
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        view.setPalette(dark);
        QVERIFY2(view.noteLabel()->styleSheet().contains(QStringLiteral("#4a3c00")),
                 qPrintable(view.noteLabel()->styleSheet()));
        QPalette light = dark;
        light.setColor(QPalette::Base, Qt::white);
        light.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
        view.setPalette(light);
        QVERIFY2(view.noteLabel()->styleSheet().contains(QStringLiteral("#fff4c2")),
                 qPrintable(view.noteLabel()->styleSheet()));
    }

    void hotLinesKeepRoomForSeveralRows() {
        kl::views::HotLinesView view;
        QVERIFY(view.minimumSizeHint().height() >= view.fontMetrics().height() * 6);
        QVERIFY(view.minimumWidth() >= 150);
    }
};

QTEST_MAIN(WorkbenchPanesTest)
#include "WorkbenchPanesTest.moc"
