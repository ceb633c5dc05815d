// The Numerics dock in the main window: it exists beside Findings, Run > Numerics... has its shortcut and does
// nothing without a target, a numerics document opened from the command line fills the dock, a broken one lands
// in Problems with its field, and choosing a top-error instruction with no timed run of the same arguments goes to
// its line (not the timeline).
#include "gui/MainWindow.h"
#include "gui/NumericsController.h"
#include "gui/WorkspaceTrust.h"

#include "numerics/NumericsModel.h"
#include "numerics/NumericsPane.h"

#include <QAction>
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
};

QTEST_MAIN(NumericsWindowTest)
#include "NumericsWindowTest.moc"
