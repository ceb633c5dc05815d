// The run begun before the window (RunHeadStart): only for a task folder the trust store already trusts, adopted by
// the window's first run when it asks for the same thing, cancelled otherwise; progress replayed in order.
#include "gui/CommandLine.h"
#include "gui/RunHeadStart.h"
#include "gui/RunJob.h"
#include "gui/SimulationRunner.h"

#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "trust/TrustStore.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using kl::app::RunHeadStart;
using kl::app::SimulationRunner;

namespace {

constexpr int kRunTimeoutMs = 120'000;

QString example(const char* name) {
    return QString::fromStdString((kl::core::examplesDir() / name).string());
}

/// A task folder outside the bundled examples (so trusted only if the store says so) whose kernel never ends.
void writeSpinningTask(const QString& folder) {
    QFile kernel(folder + QStringLiteral("/kernel.py"));
    QVERIFY(kernel.open(QIODevice::WriteOnly));
    kernel.write("import nki\nimport nki.language as nl\n\n\n@nki.jit\ndef spin(a):\n"
                 "    while True:\n        pass\n");
    kernel.close();
    QFile task(folder + QStringLiteral("/task.json"));
    QVERIFY(task.open(QIODevice::WriteOnly));
    task.write(R"({"format": 1, "title": "Spins", "kernel_file": "kernel.py", "kernel": "spin",
                   "args": [{"name": "a", "shape": [128, 64], "dtype": "float32"}]})");
}

QStringList texts(const QSignalSpy& spy) {
    QStringList out;
    for (const auto& args : spy) {
        out << args.at(0).toString();
    }
    return out;
}

} // namespace

class RunHeadStartTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_config.isValid());
        m_store = m_config.filePath(QStringLiteral("trust.json"));
    }

    void onlyExactlyUnderstoodArgumentsNameAPathEarly() {
        const kl::app::CommandLine commandLine;
        const auto only = [&](QStringList arguments) {
            arguments.prepend(QStringLiteral("kernellens"));
            return commandLine.onlyPath(arguments);
        };
        QCOMPARE(only({QStringLiteral("examples/softmax")}), QStringLiteral("examples/softmax"));
        QCOMPARE(only({QStringLiteral("--workspace"), QStringLiteral("compare"), QStringLiteral("task")}),
                 QStringLiteral("task"));
        QCOMPARE(only({QStringLiteral("--theme=dark"), QStringLiteral("task")}), QStringLiteral("task"));
        // Anything else waits for the window: no path, several, help, version, a missing value, an unknown option
        // (Qt's own, such as -platform, are consumed only by QApplication, after the early look).
        QVERIFY(only({}).isEmpty());
        QVERIFY(only({QStringLiteral("a"), QStringLiteral("b")}).isEmpty());
        QVERIFY(only({QStringLiteral("--help"), QStringLiteral("task")}).isEmpty());
        QVERIFY(only({QStringLiteral("--help-all"), QStringLiteral("task")}).isEmpty());
        QVERIFY(only({QStringLiteral("-v"), QStringLiteral("task")}).isEmpty());
        QVERIFY(only({QStringLiteral("task"), QStringLiteral("--workspace")}).isEmpty());
        QVERIFY(only({QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("task")}).isEmpty());
        QVERIFY(only({QStringLiteral("--bogus"), QStringLiteral("task")}).isEmpty());
    }

    void helpAndVersionAloneAreAnsweredOnTheTerminal() {
        const kl::app::CommandLine commandLine;
        const auto terminal = [&](QStringList arguments) {
            arguments.prepend(QStringLiteral("kernellens"));
            return commandLine.answersOnTerminal(arguments);
        };
        QVERIFY(terminal({QStringLiteral("--help")}));
        QVERIFY(terminal({QStringLiteral("-h"), QStringLiteral("task")}));
        QVERIFY(terminal({QStringLiteral("--version")}));
        QVERIFY(terminal({QStringLiteral("--help-all"), QStringLiteral("task")}));
        QVERIFY(terminal({QStringLiteral("--theme"), QStringLiteral("dark"), QStringLiteral("-v")}));
        // A path, nothing, or arguments only QApplication understands go to the window.
        QVERIFY(!terminal({QStringLiteral("task")}));
        QVERIFY(!terminal({}));
        QVERIFY(!terminal({QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("--help")}));
        QVERIFY(!terminal({QStringLiteral("--help"), QStringLiteral("--theme")}));
    }

    void startsOnlyForATaskFolderTheStoreTrusts() {
        QTemporaryDir untrusted;
        writeSpinningTask(untrusted.path());
        QVERIFY(RunHeadStart::forPath(untrusted.path(), m_store) == nullptr);                  // not trusted
        QVERIFY(RunHeadStart::forPath(example("softmax") + "/kernel.py", m_store) == nullptr); // not a folder
        QVERIFY(RunHeadStart::forPath(untrusted.filePath(QStringLiteral("missing")), m_store) == nullptr);
        QVERIFY(RunHeadStart::forPath(QDir::tempPath(), m_store) == nullptr); // a folder without task.json
        // A store that does not load trusts nothing here; the window reports it and sets it aside.
        QTemporaryDir brokenConfig;
        const QString broken = brokenConfig.filePath(QStringLiteral("trust.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": 1, \"entries\": [{\"kind\": \"nonsense\"}]}");
        file.close();
        auto bundled = RunHeadStart::forPath(example("softmax"), broken);
        QVERIFY(bundled == nullptr);
        QVERIFY(QFile::exists(broken)); // left for the window to set aside and report
    }

    void theWindowsFirstRunAdoptsAMatchingHeadStart() {
        const QString folder = QDir(example("softmax")).absolutePath();
        auto headStart = RunHeadStart::forPath(folder, m_store); // bundled examples are trusted
        QVERIFY(headStart != nullptr);
        QCOMPARE(headStart->request(), kl::app::runRequestFor(folder, {}));
        SimulationRunner runner;
        runner.offerHeadStart(headStart);
        QSignalSpy stages(&runner, &SimulationRunner::stageChanged);
        QSignalSpy finished(&runner, &SimulationRunner::finished);
        QSignalSpy failed(&runner, &SimulationRunner::failed);
        runner.start(kl::app::runRequestFor(folder, {}));
        QVERIFY(finished.wait(kRunTimeoutMs) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.at(0).at(0).toString()));
        QVERIFY(headStart->adopted());
        QVERIFY(!headStart->cancelled());
        // Every stage reached the runner, in order, however much of the run was over before it adopted it.
        const QStringList seen = texts(stages);
        const auto first = [&](const QString& part) {
            return std::ranges::find_if(seen, [&](const QString& t) { return t.contains(part); }) - seen.begin();
        };
        const auto tracing = first(QStringLiteral("Tracing"));
        const auto simulating = first(QStringLiteral("Simulating"));
        const auto done = first(QStringLiteral("Done: "));
        QVERIFY2(tracing < simulating && simulating < done && done < seen.size(), qPrintable(seen.join('|')));
        const auto outcome = finished.at(0).at(0).value<std::shared_ptr<const kl::core::RunOutcome>>();
        QVERIFY(outcome && outcome->result->summary.instructionCount > 0);
        QVERIFY(runner.takeDisplay().rows != nullptr); // the views' data came with it, built on the worker
    }

    void aDifferentRequestCancelsTheHeadStartAndRunsItsOwn() {
        const QString folder = QDir(example("softmax")).absolutePath();
        auto headStart = RunHeadStart::forPath(folder, m_store);
        QVERIFY(headStart != nullptr);
        SimulationRunner runner;
        runner.offerHeadStart(headStart);
        QSignalSpy finished(&runner, &SimulationRunner::finished);
        QSignalSpy failed(&runner, &SimulationRunner::failed);
        runner.start(kl::app::runRequestFor(folder, {}, QStringLiteral("trn2"))); // the user chose other hardware
        QVERIFY(headStart->cancelled());
        QVERIFY(!headStart->adopted());
        QVERIFY(finished.wait(kRunTimeoutMs) || !failed.isEmpty());
        QVERIFY(failed.isEmpty());
        const auto outcome = finished.at(0).at(0).value<std::shared_ptr<const kl::core::RunOutcome>>();
        QCOMPARE(QString::fromStdString(outcome->hardware.spec), QStringLiteral("trn2"));
        QTRY_VERIFY_WITH_TIMEOUT(headStart->ended(), kRunTimeoutMs);
    }

    void cancellingTheAdoptedRunStopsTheKernel() {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        writeSpinningTask(folder.path());
        const QString path = QDir(folder.path()).absolutePath();
        QTemporaryDir config;
        const QString storePath = config.filePath(QStringLiteral("trust.json"));
        kl::core::TrustStore store(storePath.toStdString());
        auto subject = kl::core::describeTaskFolder(path.toStdString());
        QVERIFY(subject.has_value());
        QVERIFY(store.add(kl::core::contentTrust(*subject)).has_value());
        QVERIFY(store.save().has_value());
        auto headStart = RunHeadStart::forPath(path, storePath);
        QVERIFY(headStart != nullptr);
        SimulationRunner runner;
        runner.offerHeadStart(headStart);
        QSignalSpy cancelled(&runner, &SimulationRunner::cancelled);
        runner.start(kl::app::runRequestFor(path, {}));
        QVERIFY(headStart->adopted());
        QSignalSpy stages(&runner, &SimulationRunner::stageChanged);
        QVERIFY(stages.wait(kRunTimeoutMs)); // tracing has begun
        QTest::qWait(1500);
        QVERIFY(!headStart->ended()); // the kernel spins: only a cancel or its 120 s limit ends it
        runner.cancel();
        QCOMPARE(cancelled.size(), 1);
        // The spinning kernel is stopped by the cancel, long before its 120 s limit would end it.
        QTRY_VERIFY_WITH_TIMEOUT(headStart->ended(), 60'000);
    }

    void anUnadoptedHeadStartIsCancelledWhenWithdrawn() {
        auto headStart = RunHeadStart::forPath(QDir(example("softmax")).absolutePath(), m_store);
        QVERIFY(headStart != nullptr);
        SimulationRunner runner;
        runner.offerHeadStart(headStart);
        runner.offerHeadStart(nullptr); // what main() does after opening its paths
        QVERIFY(headStart->cancelled());
        QTRY_VERIFY_WITH_TIMEOUT(headStart->ended(), kRunTimeoutMs);
    }

private:
    QTemporaryDir m_config;
    QString m_store;
};

QTEST_MAIN(RunHeadStartTest)
#include "RunHeadStartTest.moc"
