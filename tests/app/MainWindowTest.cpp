#include "gui/MainWindow.h"
#include "gui/RecentFiles.h"

#include "gui/SimulationRunner.h"
#include "gui/TrustGate.h"
#include "gui/WorkspaceTrust.h"

#include "review/TaskQueueView.h"

#include "common/TrustPanel.h"
#include "plots/RunPlots.h"
#include "source/HotLinesModel.h"
#include "source/HotLinesView.h"

#include "source/SourcePane.h"

#include <Qsci/qsciscintilla.h>
#include <qcustomplot.h>

#include <QDockWidget>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using kl::app::MainWindow;

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("MainWindowTest"));
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }

    void hasTheDocksOfTheDesign_data() {
        QTest::addColumn<QString>("objectName");
        for (const char* name :
             {"tasksDock", "inspectorDock", "rubricDock", "annotationsDock", "problemsDock", "findingsDock"}) {
            QTest::newRow(name) << QString::fromLatin1(name);
        }
    }

    void hasTheDocksOfTheDesign() {
        QFETCH(QString, objectName);
        MainWindow window;
        auto* dock = window.findChild<QDockWidget*>(objectName);
        QVERIFY2(dock != nullptr, qPrintable(objectName));
        QVERIFY(dock->widget() != nullptr);
    }

    void opensATaskFolderAndShowsBothSources() {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("task.json")),
                  R"({"title": "Tiny add", "kernel_file": "k.py", "kernel": "add", "cuda_file": "k.cu", "args": []})");
        writeFile(dir.filePath(QStringLiteral("k.py")), "import neuronxcc.nki as nki\n");
        writeFile(dir.filePath(QStringLiteral("k.cu")), "__global__ void add() {}\n");
        MainWindow window;
        QVERIFY(window.openPath(dir.path()));
        QCOMPARE(window.nkiPane()->text(), QStringLiteral("import neuronxcc.nki as nki\n"));
        QCOMPARE(window.cudaPane()->text(), QStringLiteral("__global__ void add() {}\n"));
        QCOMPARE(window.taskQueue()->model()->rowCount(), 1);
        QCOMPARE(window.taskQueue()->model()->index(0, 0).data().toString(), QStringLiteral("Tiny add"));
        QCOMPARE(window.taskQueue()->currentRow(), 0);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Tiny add")));
        QCOMPARE(window.recentFiles()->entries().value(0), QDir::cleanPath(dir.path()));
        QCOMPARE(window.problems()->count(), 0);
    }

    void aBrokenTaskIsAProblemNotACrash() {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("task.json")), "{ broken");
        MainWindow window;
        QVERIFY(!window.openPath(dir.path()));
        QCOMPARE(window.problems()->count(), 1);
        QVERIFY(window.problems()->item(0)->text().contains(QStringLiteral("task.json")));
        QVERIFY(window.problems()->item(0)->text().contains(QStringLiteral("not valid JSON")));
    }

    void aMissingPathIsAProblem() {
        MainWindow window;
        QVERIFY(!window.openPath(QStringLiteral("/no/such/task")));
        QCOMPARE(window.problems()->count(), 1);
        QVERIFY(window.recentFiles()->entries().indexOf(QStringLiteral("/no/such/task")) < 0);
    }

    void aKernelThatBreaksARuleIsAProblemAtItsLine() {
        QTemporaryDir dir;
        const QString kernel = dir.filePath(QStringLiteral("too_tall.py"));
        writeFile(kernel, "import neuronxcc.nki as nki\n"
                          "import neuronxcc.nki.language as nl\n"
                          "@nki.jit\n"
                          "def too_tall(a):\n"
                          "    t = nl.ndarray((129, 4), dtype=nl.float32, buffer=nl.sbuf)\n"
                          "    return a\n");
        QSettings().setValue(QStringLiteral("kernelArgs/") +
                                 QString::fromLatin1(QFileInfo(kernel).absoluteFilePath().toUtf8().toBase64()),
                             QStringLiteral("a=128x4:float32"));
        MainWindow window;
        QSignalSpy failed(window.runner(), &kl::app::SimulationRunner::failed);
        QVERIFY(window.openPath(kernel));
        QVERIFY(window.isAwaitingTrust()); // a kernel from a temporary folder waits to be trusted
        window.trustGate()->panel()->trustButton()->click();
        QVERIFY(failed.wait(60'000));
        QCOMPARE(failed.at(0).at(2).toInt(), 5);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("129")));
        QVERIFY(window.problems()->count() >= 1);
        const QString problem = window.problems()->item(window.problems()->count() - 1)->text();
        QVERIFY2(problem.contains(QStringLiteral("too_tall.py:5:")), qPrintable(problem));
        int line = 0;
        int index = 0;
        window.nkiPane()->editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 4); // the editor counts from 0
    }

    void progressTextNamesTheFiguresOfEachPhase_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QStringList>("figures");
        QTest::newRow("trace") << int(kl::core::RunStage::Tracing)
                               << QStringList{QStringLiteral("Tracing"), QStringLiteral("2.3 s")};
        QTest::newRow("load") << int(kl::core::RunStage::LoadingIr)
                              << QStringList{QStringLiteral("10.9 MB"), QStringLiteral("2.3 s")};
        QTest::newRow("simulate") << int(kl::core::RunStage::Simulating)
                                  << QStringList{QStringLiteral("Simulating 99,328 instructions"),
                                                 QStringLiteral("10.9 MB"), QStringLiteral("2.3 s")};
        QTest::newRow("done") << int(kl::core::RunStage::Done)
                              << QStringList{QStringLiteral("99,000 instructions simulated"), QStringLiteral("2.3 s")};
    }

    void progressTextNamesTheFiguresOfEachPhase() {
        QFETCH(int, stage);
        QFETCH(QStringList, figures);
        kl::core::RunProgress p;
        p.stage = static_cast<kl::core::RunStage>(stage);
        p.irBytes = 10'900'000;
        p.instructionsTraced = 99'328;
        p.instructionsSimulated = 99'000;
        p.elapsedSeconds = 2.31;
        const QString text = kl::app::SimulationRunner::progressText(p);
        for (const QString& figure : figures) {
            QVERIFY2(text.contains(figure), qPrintable(text + QStringLiteral(" lacks ") + figure));
        }
    }

    void openingAKernelReportsEachPhaseWithItsFigures() {
        QTemporaryDir dir;
        const QString kernel = dir.filePath(QStringLiteral("add.py"));
        writeFile(kernel, "import neuronxcc.nki as nki\n"
                          "import neuronxcc.nki.language as nl\n"
                          "@nki.jit\n"
                          "def add(a, b):\n"
                          "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
                          "    for i in nl.affine_range(4):\n"
                          "        x = nl.load(a[i * 128:(i + 1) * 128, :])\n"
                          "        y = nl.load(b[i * 128:(i + 1) * 128, :])\n"
                          "        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.add(x, y))\n"
                          "    return out\n");
        QSettings().setValue(QStringLiteral("kernelArgs/") +
                                 QString::fromLatin1(QFileInfo(kernel).absoluteFilePath().toUtf8().toBase64()),
                             QStringLiteral("a=512x64:float32 b=512x64:float32"));
        MainWindow window;
        QSignalSpy stages(window.runner(), &kl::app::SimulationRunner::stageChanged);
        QSignalSpy finished(window.runner(), &kl::app::SimulationRunner::finished);
        QSignalSpy failed(window.runner(), &kl::app::SimulationRunner::failed);
        QVERIFY(window.openPath(kernel));
        window.trustGate()->panel()->trustButton()->click();
        QVERIFY(finished.wait(60'000) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.at(0).at(0).toString()));
        QStringList texts;
        for (const auto& args : stages) {
            texts << args.at(0).toString();
        }
        const auto seen = [&](const QString& part) {
            return std::ranges::any_of(texts, [&](const QString& t) { return t.contains(part); });
        };
        // 4 x (two loads, an add, a store): the phases name what the ones before them produced.
        QVERIFY2(seen(QStringLiteral("Tracing")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(seen(QStringLiteral(" MB traced")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(seen(QStringLiteral("Simulating 16 instructions")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(seen(QStringLiteral("Done: 16 instructions simulated in ")), qPrintable(texts.join(QLatin1Char('|'))));
        // The plots' series and the hot lines came built with the run (RunDisplay, on the worker): the window took
        // them and the views show them.
        QVERIFY(!window.runner()->takeDisplay().rows);
        auto* plots = window.findChild<kl::views::RunPlots*>();
        QVERIFY(plots != nullptr);
        QVERIFY(plots->plot()->graph(3)->data()->size() > 2); // compute busy: 0, then on/off steps
        auto* hotLines = window.findChild<kl::views::HotLinesView*>();
        QVERIFY(hotLines != nullptr);
        QCOMPARE(hotLines->model()->rowCount(), 3); // the two loads' lines and the line of the add and the store
    }

    void recentFilesKeepTheNewestFirstWithoutDuplicates() {
        kl::app::RecentFiles recent;
        recent.clear();
        for (int i = 0; i < kl::app::RecentFiles::kMaxEntries + 3; ++i) {
            recent.add(QStringLiteral("/tmp/task%1").arg(i));
        }
        recent.add(QStringLiteral("/tmp/task5"));
        const QStringList entries = kl::app::RecentFiles().entries(); // read back through QSettings
        QCOMPARE(entries.size(), kl::app::RecentFiles::kMaxEntries);
        QCOMPARE(entries.first(), QStringLiteral("/tmp/task5"));
        QCOMPARE(entries.count(QStringLiteral("/tmp/task5")), 1);
    }

    void splitterLayoutIsRestoredOnTheNextRun() {
        QList<int> saved;
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto* sources = window.findChild<QSplitter*>(QStringLiteral("sourcesSplitter"));
            sources->setSizes({300, 900});
            saved = sources->sizes();
            window.close();
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("sourcesSplitter"))->sizes(), saved);
    }

    void aHiddenDockStaysHiddenOnTheNextRun() {
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.findChild<QDockWidget*>(QStringLiteral("tasksDock"))->hide();
            window.close();
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(!again.findChild<QDockWidget*>(QStringLiteral("tasksDock"))->isVisible());
        QSettings().clear();
    }

private:
    static void writeFile(const QString& path, const QByteArray& text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
