// Workspace trust in the real main window and in `kernellens-cli report`: a hostile task folder and a hostile
// review, whose kernel leaves a marker file when it runs, run nothing when opened; they run once trusted.
#include "gui/MainWindow.h"
#include "gui/SimulationRunner.h"
#include "gui/TrustGate.h"
#include "gui/TrustedLocationsDialog.h"
#include "gui/WorkspaceTrust.h"

#include "common/TrustPanel.h"
#include "review/ReviewFile.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "trust/TrustStore.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <optional>
#include <utility>

using kl::app::MainWindow;

namespace {

constexpr int kRunTimeoutMs = 60'000;
/// Long enough for a trace to have started and written its marker, had anything run.
constexpr int kWouldHaveRunMs = 2500;

/// A valid NKI kernel that, like a hostile one, also writes `marker` whenever it is imported or called.
QByteArray hostileKernel(const QString& marker, const QByteArray& extra = {}) {
    return QByteArray(R"PY(import nki
import nki.isa as nisa
import nki.language as nl

MARKER = r"@MARKER@"


def _leave_marker():
    try:
        with open(MARKER, "w") as f:
            f.write("the kernel ran")
    except Exception:
        pass  # a sandbox may refuse the write; the run itself must still work


_leave_marker()


@nki.jit
def add(a, b):
    _leave_marker()
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    a_tile = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    b_tile = nl.ndarray(b.shape, dtype=b.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=a_tile, src=a)
    nisa.dma_copy(dst=b_tile, src=b)
    c_tile = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=c_tile, data1=a_tile, data2=b_tile, op=nl.add)
    nisa.dma_copy(dst=out, src=c_tile)
    return out
)PY")
               .replace("@MARKER@", marker.toUtf8()) +
           extra;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    file.write(bytes);
}

/// A task folder holding the hostile kernel; returns its path.
QString makeHostileTask(const QString& folder, const QString& marker, const QByteArray& extra = {}) {
    writeFile(folder + QStringLiteral("/task.json"),
              R"({"format": 1, "title": "Innocent vector add", "kernel_file": "kernel.py", "kernel": "add",
                  "args": [{"name": "a", "shape": [128, 512], "dtype": "float32"},
                           {"name": "b", "shape": [128, 512], "dtype": "float32"}]})");
    writeFile(folder + QStringLiteral("/kernel.py"), hostileKernel(marker, extra));
    return folder;
}

/// A review by `author` holding one hostile task; returns the review's path.
QString makeHostileReview(const QString& dir, const QString& name, const QString& author, const QString& marker,
                          const QByteArray& extra = {}) {
    const QString task = makeHostileTask(dir + QLatin1Char('/') + name + QStringLiteral("_task"), marker, extra);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".klreview");
    auto rubric = kl::core::readTextFile(kl::core::resourcesDir() / "rubrics" / "nki-migration.json");
    if (!rubric) {
        return {};
    }
    const kl::core::ReviewFile::CreateOptions options{*rubric, "nki-migration.json", author.toStdString()};
    auto review = kl::core::ReviewFile::create(path.toStdString(), options);
    if (!review || !review->tasks().addFromFolder(task.toStdString())) {
        return {};
    }
    return path;
}

/// Waits for the window's run to finish; fails with the run's message if it failed instead.
bool waitForRun(MainWindow& window) {
    QSignalSpy finished(window.runner(), &kl::app::SimulationRunner::finished);
    QSignalSpy failed(window.runner(), &kl::app::SimulationRunner::failed);
    if (!window.runner()->isRunning() && finished.isEmpty()) {
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    while (finished.isEmpty() && failed.isEmpty() && clock.elapsed() < kRunTimeoutMs) {
        QTest::qWait(50);
    }
    if (!failed.isEmpty()) {
        qWarning() << "the run failed:" << failed.at(0).at(0).toString();
    }
    return !finished.isEmpty();
}

QAction* actionNamed(MainWindow& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text) {
            return action;
        }
    }
    return nullptr;
}

/// Opens File > Export Report and reads its "Re-simulate" box: {enabled, checked}; cancels the dialog.
std::optional<std::pair<bool, bool>> exportDialogReSimulation(MainWindow& window) {
    std::optional<std::pair<bool, bool>> seen;
    QTimer timer;
    timer.setInterval(20);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (dialog && dialog->findChild<QComboBox*>() && dialog->findChild<QCheckBox*>()) {
            seen =
                std::pair{dialog->findChild<QCheckBox*>()->isEnabled(), dialog->findChild<QCheckBox*>()->isChecked()};
            dialog->reject();
        }
    });
    QTimer::singleShot(10'000, [] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            modal->close(); // never hang the suite on a dialog that did not appear as expected
        }
    });
    timer.start();
    if (QAction* exportReport = actionNamed(window, QStringLiteral("&Export Report..."))) {
        exportReport->trigger();
    }
    timer.stop();
    return seen;
}

QAction* simulateAgainAction(MainWindow& window) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == QStringLiteral("&Simulate Again")) {
            return action;
        }
    }
    return nullptr;
}

} // namespace

class TrustTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    /// Opens `target` and checks that nothing ran: no marker, no trace started, the trust prompt in its place.
    void expectNothingRuns(MainWindow& window, const QString& target, const QString& marker) {
        QVERIFY(window.openPath(target));
        QTest::qWait(kWouldHaveRunMs);
        QVERIFY2(!QFileInfo::exists(marker), "the kernel ran before it was trusted");
        QVERIFY(window.isAwaitingTrust());
        QCOMPARE(window.runner()->generation(), quint64{0}); // no trace was ever started
        QVERIFY(!window.runner()->isRunning());
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("TrustTest"));
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(path(QStringLiteral("markers")))); // the kernels write their markers here
    }

    void init() { QFile::remove(kl::app::WorkspaceTrust::defaultStorePath()); }

    void aHostileTaskFolderRunsNothingUntilTrusted() {
        const QString marker = path(QStringLiteral("markers/task"));
        const QString task = makeHostileTask(path(QStringLiteral("task")), marker);
        MainWindow window;
        expectNothingRuns(window, task, marker);
        if (QTest::currentTestFailed()) {
            return;
        }
        const QString shown = window.trustGate()->panel()->rowsText();
        QVERIFY2(shown.contains(QDir(task).filePath(QStringLiteral("kernel.py"))), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("Function: add")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("a: 128x512 float32")), qPrintable(shown));
        QVERIFY2(window.statusSummary().contains(QStringLiteral("Not run")), qPrintable(window.statusSummary()));

        // Simulate Again (F5) goes through the same gate.
        QAction* again = simulateAgainAction(window);
        QVERIFY(again != nullptr);
        again->trigger();
        QVERIFY(window.isAwaitingTrust());
        QCOMPARE(window.runner()->generation(), quint64{0});

        window.trustGate()->panel()->trustButton()->click();
        QVERIFY(!window.isAwaitingTrust());
        QVERIFY(waitForRun(window));
        QVERIFY2(window.statusSummary().startsWith(QStringLiteral("add on")), qPrintable(window.statusSummary()));

        // Remembered by content: the next window runs it at once...
        MainWindow second;
        QVERIFY(second.openPath(task));
        QVERIFY(!second.isAwaitingTrust());
        QVERIFY(waitForRun(second));

        // ...until the content changes.
        QFile::remove(marker);
        writeFile(QDir(task).filePath(QStringLiteral("helper.py")), "import os\n");
        MainWindow third;
        expectNothingRuns(third, task, marker);
    }

    void aHostileReviewRunsNothingUntilTrusted() {
        const QString marker = path(QStringLiteral("markers/review"));
        const QString review =
            makeHostileReview(m_dir.path(), QStringLiteral("hostile"), QStringLiteral("mallory"), marker);
        QVERIFY(!review.isEmpty());
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        expectNothingRuns(window, review, marker);
        if (QTest::currentTestFailed()) {
            return;
        }
        kl::views::TrustPanel* panel = window.trustGate()->panel();
        QVERIFY(panel->authorButton()->isVisible());
        QVERIFY(panel->authorButton()->text().contains(QStringLiteral("mallory")));
        QVERIFY2(panel->rowsText().contains(review), qPrintable(panel->rowsText()));
        QVERIFY2(panel->rowsText().contains(QStringLiteral("Function: add")), qPrintable(panel->rowsText()));

        // File > Export Report does not re-simulate an untrusted review.
        QCOMPARE(exportDialogReSimulation(window), std::optional(std::pair{false, false}));
        QVERIFY(!QFileInfo::exists(marker));

        panel->trustButton()->click();
        QVERIFY(waitForRun(window));
        QCOMPARE(exportDialogReSimulation(window), std::optional(std::pair{true, true}));
        auto file = kl::core::ReviewFile::open(review.toStdString());
        QVERIFY(file.has_value());
        QVERIFY(!file->runs().list(file->tasks().list()->front().id)->empty()); // the run went into the review
    }

    void trustingAFolderRunsWhatItHolds() {
        const QString folder = path(QStringLiteral("colleague"));
        const QString first = makeHostileTask(folder + QStringLiteral("/t1"), path(QStringLiteral("markers/f1")));
        const QString second =
            makeHostileTask(folder + QStringLiteral("/t2"), path(QStringLiteral("markers/f2")), "# another kernel\n");
        MainWindow window;
        expectNothingRuns(window, first, path(QStringLiteral("markers/f1")));
        if (QTest::currentTestFailed()) {
            return;
        }
        QVERIFY(window.trustGate()->panel()->folderButton()->isVisibleTo(window.trustGate()->panel()));
        window.trustGate()->panel()->folderButton()->click();
        QVERIFY(waitForRun(window));
        // A trusted folder runs whatever it holds, changed or not.
        writeFile(QDir(first).filePath(QStringLiteral("helper.py")), "x = 1\n");
        MainWindow changed;
        QVERIFY(changed.openPath(first));
        QVERIFY(!changed.isAwaitingTrust());
        QVERIFY(waitForRun(changed));
        // Trusted ahead of opening (Trusted Locations > Add Folder): the parent covers every task in it.
        QVERIFY(window.trustGate()->trust()->trustFolder(folder));
        MainWindow other;
        QVERIFY(other.openPath(second));
        QVERIFY(!other.isAwaitingTrust());
        QVERIFY(waitForRun(other));
    }

    void trustingAnAuthorRunsTheirOtherReviews() {
        const QString one = makeHostileReview(m_dir.path(), QStringLiteral("by_ana_1"), QStringLiteral("ana"),
                                              path(QStringLiteral("markers/a1")));
        const QString two = makeHostileReview(m_dir.path(), QStringLiteral("by_ana_2"), QStringLiteral("ana"),
                                              path(QStringLiteral("markers/a2")), "# changed\n");
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        expectNothingRuns(window, one, path(QStringLiteral("markers/a1")));
        if (QTest::currentTestFailed()) {
            return;
        }
        window.trustGate()->panel()->authorButton()->click();
        QVERIFY(waitForRun(window));
        MainWindow other;
        QVERIFY(other.openPath(two));
        QVERIFY(!other.isAwaitingTrust());
        QVERIFY(waitForRun(other));
    }

    void removingAnEntryInTrustedLocationsAsksAgain() {
        const QString marker = path(QStringLiteral("markers/revoke"));
        const QString task = makeHostileTask(path(QStringLiteral("revoke")), marker);
        {
            MainWindow window;
            expectNothingRuns(window, task, marker);
            if (QTest::currentTestFailed()) {
                return;
            }
            window.trustGate()->panel()->trustButton()->click();
            QVERIFY(waitForRun(window));
            kl::app::TrustedLocationsDialog dialog(window.trustGate()->trust(), &window);
            const QAbstractItemModel* entries = dialog.table()->model();
            QCOMPARE(entries->rowCount(), 1);
            QVERIFY(entries->index(0, 2).data().toString().contains(QStringLiteral("revoke")));
            QVERIFY(!dialog.removeButton()->isEnabled()); // nothing chosen yet
            dialog.table()->selectRow(0);
            QVERIFY(dialog.removeButton()->isEnabled());
            dialog.removeButton()->click();
            QCOMPARE(entries->rowCount(), 0);
            QVERIFY(!dialog.removeButton()->isEnabled());
        }
        QFile::remove(marker);
        MainWindow again;
        expectNothingRuns(again, task, marker);
    }

    void theBundledExamplesRunAtOnce() {
        MainWindow window;
        QVERIFY(window.openPath(QString::fromStdString((kl::core::examplesDir() / "vector_add_nki").string())));
        QVERIFY(!window.isAwaitingTrust());
        QVERIFY(waitForRun(window));
    }

    void aBrokenTrustStoreIsAProblemNotACrash() {
        const QString store = path(QStringLiteral("config/trust.json"));
        writeFile(store, R"({"format": 1, "entries": [{"kind": "folder", "value": "/"}]})");
        kl::app::WorkspaceTrust trust(store);
        QVERIFY2(trust.loadProblem().contains(store), qPrintable(trust.loadProblem()));
        QVERIFY(trust.entries().empty());
        QVERIFY(QFileInfo::exists(store + QStringLiteral(".broken")));
        QVERIFY(trust.trustFolder(path(QStringLiteral("colleague"))));
        auto reloaded = kl::core::TrustStore::load(store.toStdString());
        QVERIFY(reloaded.has_value());
        QCOMPARE(reloaded->entries().size(), std::size_t{1});

        // The window says so in Problems and trusts nothing from it.
        writeFile(kl::app::WorkspaceTrust::defaultStorePath(), "\xff not json");
        MainWindow window;
        QCOMPARE(window.problems()->count(), 1);
        QVERIFY(window.problems()->item(0)->text().contains(QStringLiteral("trust store")));
    }

    void theCliReportRunsReviewKernelsOnlyWithTrust() {
        const QString marker = path(QStringLiteral("markers/cli"));
        const QString review =
            makeHostileReview(m_dir.path(), QStringLiteral("cli"), QStringLiteral("mallory"), marker);
        QVERIFY(!review.isEmpty());
        const auto report = [&](const QStringList& extra, QString* err) {
            QProcess cli;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            cli.setProcessEnvironment(env);
            cli.start(QStringLiteral(KL_CLI), QStringList{QStringLiteral("report"), review, QStringLiteral("-o"),
                                                          path(QStringLiteral("cli.md"))} +
                                                  extra);
            if (!cli.waitForFinished(kRunTimeoutMs)) {
                return -1;
            }
            *err = QString::fromUtf8(cli.readAllStandardError());
            return cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
        };
        QString err;
        QCOMPARE(report({}, &err), 0);
        QVERIFY2(!QFileInfo::exists(marker), "report ran the review's kernel without --trust");
        QVERIFY2(err.contains(QStringLiteral("--trust")), qPrintable(err));
        QFile md(path(QStringLiteral("cli.md")));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QVERIFY(!md.readAll().contains("re-simulation of the sources"));
        md.close();

        QCOMPARE(report({QStringLiteral("--trust")}, &err), 0);
        QVERIFY2(!err.contains(QStringLiteral("not re-simulated")), qPrintable(err));
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QByteArray text = md.readAll();
        QVERIFY2(text.contains("re-simulation of the sources"), text.constData());

        QCOMPARE(report({QStringLiteral("--trust"), QStringLiteral("--no-simulate")}, &err), 2);
    }

    void cleanupTestCase() {
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }
};

QTEST_MAIN(TrustTest)
#include "TrustTest.moc"
