// Panes of the first hour (issue 21): a lesson's note leaves with its comparison; the start page scrolls by
// pixel; the hot lines keep room for several rows.
#include "result/SyntheticRun.h"

#include "common/StartPage.h"
#include "compare/CompareView.h"
#include "source/HotLinesView.h"

#include <QListWidget>
#include <QTest>

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

    void startPageScrollsByPixel() {
        kl::views::StartPage page;
        for (const char* name : {"startExamples", "startRecent"}) {
            auto* list = page.findChild<QListWidget*>(QString::fromLatin1(name));
            QVERIFY(list != nullptr);
            QCOMPARE(list->verticalScrollMode(), QAbstractItemView::ScrollPerPixel);
        }
    }

    void hotLinesKeepRoomForSeveralRows() {
        kl::views::HotLinesView view;
        QVERIFY(view.minimumSizeHint().height() >= view.fontMetrics().height() * 6);
        QVERIFY(view.minimumWidth() >= 150);
    }
};

QTEST_MAIN(WorkbenchPanesTest)
#include "WorkbenchPanesTest.moc"
