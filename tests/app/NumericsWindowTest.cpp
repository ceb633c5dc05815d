// The Numerics dock in the main window: it exists beside Findings, Run > Numerics... has its shortcut and does
// nothing without a target, a numerics document opened from the command line fills the dock, a broken one lands
// in Problems with its field, and choosing a top-error instruction with no timed run of the same arguments goes to
// its line (not the timeline).
#include "gui/MainWindow.h"
#include "gui/NumericsController.h"
#include "gui/ReviewSession.h"
#include "gui/SimulationRunner.h"
#include "gui/TrustGate.h"
#include "gui/WorkspaceTrust.h"

#include "common/TrustPanel.h"
#include "review/ReviewFile.h"

#include "numerics/NumericsModel.h"
#include "numerics/NumericsPane.h"

#include <QAction>
#include <QDir>
#include <QPushButton>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using kl::app::MainWindow;

namespace {

const QString kData = QStringLiteral(KL_SOURCE_DIR "/tests/core/data/numerics/");

QAction* findAction(MainWindow& window, const QString& text) {
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->text() == text) {
            return a;
        }
    }
    return nullptr;
}

} // namespace

class NumericsWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("NumericsWindowTest"));
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }

    void hasTheDockAndTheAction() {
        MainWindow window;
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("numericsDock"));
        QVERIFY(dock != nullptr);
        QCOMPARE(dock->widget(), static_cast<QWidget*>(window.numericsPane()));
        QAction* action = findAction(window, QStringLiteral("&Numerics..."));
        QVERIFY(action != nullptr);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+F5")));
        // No other action of the window has the same shortcut.
        int same = 0;
        for (QAction* a : window.findChildren<QAction*>()) {
            same += a->shortcut() == action->shortcut() ? 1 : 0;
        }
        QCOMPARE(same, 1);
        // Nothing open: nothing runs, and it says so.
        QVERIFY(!window.numerics()->run({}));
        QVERIFY(!window.numerics()->isRunning());
    }

    void aDocumentFillsTheDock() {
        MainWindow window;
        QVERIFY(window.openPath(kData + QStringLiteral("ragged_fail.json")));
        auto* pane = window.numericsPane();
        QCOMPARE(pane->model()->rowCount(), 3);
        QVERIFY2(pane->summary()->text().contains(QStringLiteral("FAIL")), qPrintable(pane->summary()->text()));
        QCOMPARE(pane->instructionModel()->rowCount(), 2);

        QSignalSpy shown(window.numerics(), &kl::app::NumericsController::instructionShown);
        pane->instructions()->setCurrentIndex(pane->instructionModel()->index(0, 0));
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.at(0).at(0).toLongLong(), -1LL); // no timed run with the same arguments: the line instead
    }

    void aBrokenDocumentGoesToProblems() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "kernellens-numerics", "version": 1, "kernel": "k", "kernel_file": 7})");
        f.close();
        MainWindow window;
        QVERIFY(!window.openPath(path));
        QCOMPARE(window.problems()->count(), 1);
        QVERIFY2(window.problems()->item(0)->text().contains(QStringLiteral("kernel_file: expected a string")),
                 qPrintable(window.problems()->item(0)->text()));
        QCOMPARE(window.numericsPane()->model()->rowCount(), 0);
    }

    /// For real: a review made from the deliberately wrong example, trusted, simulated, then run on values on the
    /// worker. The failing comparisons are shown and stored in the review (its stored reference.py is found), and
    /// the top-error instruction links to the timeline (same arguments as the timed run).
    void aRealRunOfAReviewTaskIsShownStoredAndLinked() {
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
        QSettings().setValue(QStringLiteral("reviewer"), QStringLiteral("Ana")); // no name dialog
        QTemporaryDir dir;
        const QString example = QStringLiteral(KL_SOURCE_DIR "/examples/ragged_rows_wrong");
        QDir().mkpath(dir.filePath(QStringLiteral("tasks/ragged")));
        for (const QString& f : QDir(example).entryList(QDir::Files)) {
            QVERIFY(QFile::copy(example + QLatin1Char('/') + f, dir.filePath(QStringLiteral("tasks/ragged/") + f)));
        }
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy simulated(window.runner(), &kl::app::SimulationRunner::finished);
        QVERIFY(window.createReview(dir.filePath(QStringLiteral("r.klreview")), dir.filePath(QStringLiteral("tasks"))));
        QVERIFY(window.isAwaitingTrust());
        window.trustGate()->panel()->trustButton()->click();
        QVERIFY(simulated.wait(120000));

        QSignalSpy finished(window.numerics(), &kl::app::NumericsController::finished);
        kl::core::NumericsOptions options;
        options.seed = 2;
        QVERIFY(window.numerics()->run(options));
        QVERIFY(window.numerics()->isRunning());
        QVERIFY(finished.wait(120000));
        auto* pane = window.numericsPane();
        QCOMPARE(pane->model()->rowCount(), 3);
        QCOMPARE(pane->model()->index(0, kl::views::NumericsModel::Result).data().toString(), QStringLiteral("FAIL"));
        auto runs = window.review()->file()->numericsRuns().list(*window.review()->currentTask());
        QVERIFY(runs.has_value());
        QCOMPARE(runs->size(), std::size_t{1});
        QVERIFY(!runs->front().passed);
        QCOMPARE(runs->front().seed, std::int64_t{2});

        QSignalSpy shown(window.numerics(), &kl::app::NumericsController::instructionShown);
        pane->instructions()->setCurrentIndex(pane->instructionModel()->index(0, 0));
        QCOMPARE(shown.count(), 1);
        QVERIFY2(shown.at(0).at(0).toLongLong() >= 0, "the same arguments as the timed run: the timeline");
    }
};

QTEST_MAIN(NumericsWindowTest)
#include "NumericsWindowTest.moc"
