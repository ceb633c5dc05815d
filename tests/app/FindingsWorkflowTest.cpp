// The Findings dock in the real main window, on a real trace of the naive matmul example: the findings of the
// run are listed, selecting one shows its evidence, Accept writes an annotation to the review file on disk and
// Ctrl+Z removes it, Dismiss keeps its reason in the file across reopening, and without a review both are off.
#include "gui/FindingsController.h"
#include "gui/MainWindow.h"
#include "gui/ReviewSession.h"
#include "gui/SimulationRunner.h"
#include "gui/TrustGate.h"
#include "gui/WorkspaceTrust.h"

#include "common/TrustPanel.h"
#include "findings/FindingsModel.h"
#include "findings/FindingsPane.h"
#include "findings/RooflinePlot.h"
#include "source/SourcePane.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include "result/SimResult.h"
#include "review/ReviewFile.h"
#include "run/RunPipeline.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <limits>

using kl::app::MainWindow;
using kl::views::FindingsModel;

namespace {

const QString kSmall = QStringLiteral("dma-small-transfers");
const QString kRoofline = QStringLiteral("roofline");

std::vector<kl::core::Annotation> annotationsOnDisk(const QString& path) {
    auto file = kl::core::ReviewFile::open(path.toStdString());
    return file ? file->annotations().list().value_or(std::vector<kl::core::Annotation>{})
                : std::vector<kl::core::Annotation>{};
}

std::vector<kl::core::FindingDismissal> dismissalsOnDisk(const QString& path) {
    auto file = kl::core::ReviewFile::open(path.toStdString());
    if (!file) {
        return {};
    }
    const auto tasks = file->tasks().list().value_or(std::vector<kl::core::Task>{});
    return tasks.empty()
               ? std::vector<kl::core::FindingDismissal>{}
               : file->findingDismissals().list(tasks.front().id).value_or(std::vector<kl::core::FindingDismissal>{});
}

} // namespace

class FindingsWorkflowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_review;
    std::unique_ptr<MainWindow> m_window;

    FindingsModel* model() const { return m_window->findingsPane()->model(); }
    QModelIndex cell(const QString& key, int column) const { return model()->index(model()->rowOfKey(key), column); }

    /// Waits for a run and then its findings.
    static bool waitForFindings(QSignalSpy& findings) { return findings.count() > 0 || findings.wait(240'000); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("FindingsWorkflowTest"));
        QSettings().clear();
        QSettings().setValue(QStringLiteral("reviewer"), QStringLiteral("Ana"));
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
        const QString example = QStringLiteral(KL_SOURCE_DIR "/examples/matmul_basic_tiled");
        QDir().mkpath(m_dir.filePath(QStringLiteral("tasks/matmul")));
        for (const QString& f : QDir(example).entryList(QDir::Files)) {
            QVERIFY(QFile::copy(example + QLatin1Char('/') + f, m_dir.filePath(QStringLiteral("tasks/matmul/") + f)));
        }
        m_review = m_dir.filePath(QStringLiteral("review.klreview"));
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1600, 1000);
        m_window->show();
        QSignalSpy findings(m_window->runner(), &kl::app::SimulationRunner::findingsReady);
        QVERIFY(m_window->createReview(m_review, m_dir.filePath(QStringLiteral("tasks"))));
        QVERIFY(m_window->isAwaitingTrust());
        m_window->trustGate()->panel()->trustButton()->click();
        QVERIFY2(waitForFindings(findings), "the task was traced, simulated and its findings computed");
    }

    void theRunsFindingsAreListedWithItsRoofline() {
        QVERIFY(model()->rowCount() >= 2);
        QVERIFY(model()->rowOfKey(kSmall) >= 0);
        QVERIFY(model()->rowOfKey(kRoofline) >= 0);
        QCOMPARE(cell(kSmall, FindingsModel::Severity).data().toString(), QStringLiteral("major"));
        QCOMPARE(m_window->findingsPane()->roofline()->kernelPoint()->data()->size(), 1);
        QCOMPARE(m_window->findingsPane()->roofline()->memoryRoof()->data()->size(), 2);
    }

    void selectingAFindingShowsItsEvidence() {
        const auto* finding = model()->findingAt(model()->rowOfKey(kSmall));
        QVERIFY(finding != nullptr);
        int nkiLine = 0;
        int cudaLine = 0;
        for (const auto& e : finding->evidence) {
            for (const auto& l : e.lines) {
                int& line = l.side == kl::core::findings::SourceSide::Nki ? nkiLine : cudaLine;
                line = line != 0 ? line : l.firstLine;
            }
        }
        QVERIFY2(nkiLine > 0, "the finding points at NKI lines");
        m_window->nkiPane()->highlightLines(0, 0);
        m_window->cudaPane()->highlightLines(0, 0);
        auto* timeline = m_window->timelinePage()->timeline();
        timeline->setVisibleRange(0, 1000); // somewhere else
        QSignalSpy evidence(m_window->findingsPane(), &kl::views::FindingsPane::evidenceRequested);
        QVERIFY(m_window->findingsPane()->selectKey(kSmall));
        QCOMPARE(evidence.count(), 1);
        QCOMPARE(m_window->nkiPane()->highlightedLines().first, nkiLine);
        if (cudaLine > 0) {
            QCOMPARE(m_window->cudaPane()->highlightedLines().first, cudaLine);
        }
        // The timeline zoomed onto the evidence: its whole span in view, and not much more.
        const auto& tl = m_window->findings()->run()->result->timeline;
        qint64 t0 = std::numeric_limits<qint64>::max();
        qint64 t1 = 0;
        // The span of its time ranges, else of its instructions.
        for (const auto& e : finding->evidence) {
            for (const auto& t : e.times) {
                t0 = std::min<qint64>(t0, t.startPs);
                t1 = std::max<qint64>(t1, t.endPs);
            }
        }
        if (t0 > t1) {
            for (const auto& e : finding->evidence) {
                for (const auto& r : e.instructions) {
                    for (std::uint32_t i = r.first; i <= r.last; ++i) {
                        t0 = std::min<qint64>(t0, tl.mainStartPs(i));
                        t1 = std::max<qint64>(t1, tl.endPs(i));
                    }
                }
            }
        }
        QVERIFY(t0 < t1);
        QVERIFY(timeline->visibleStart() <= t0);
        QVERIFY(timeline->visibleEnd() >= t1);
        QVERIFY(timeline->visibleEnd() - timeline->visibleStart() <= (t1 - t0) * 5 / 4 + 2000);
    }

    void acceptWritesAnAnnotationToTheFileAndUndoRemovesIt() {
        QCOMPARE(annotationsOnDisk(m_review).size(), std::size_t{0});
        auto* pane = m_window->findingsPane();
        QVERIFY(pane->selectKey(kSmall));
        QVERIFY(pane->acceptButton()->isEnabled());
        pane->table()->setFocus();
        QTest::keyClick(pane->table(), Qt::Key_A);
        const auto saved = annotationsOnDisk(m_review);
        QCOMPARE(saved.size(), std::size_t{1});
        QCOMPARE(saved[0].rubricItem, std::string("perf.dma"));
        QVERIFY(saved[0].severity == kl::core::Severity::Major);
        QVERIFY(saved[0].text.find("(dma-small-transfers)") != std::string::npos);
        QVERIFY(saved[0].anchor.kind == kl::core::AnchorKind::NkiLines);
        QCOMPARE(saved[0].author, std::string("Ana"));
        QVERIFY(cell(kSmall, 0).data(FindingsModel::AcceptedRole).toBool());
        QVERIFY(!pane->acceptButton()->isEnabled()); // accepted once

        m_window->review()->undoStack()->undo();
        QCOMPARE(annotationsOnDisk(m_review).size(), std::size_t{0});
        QVERIFY(!cell(kSmall, 0).data(FindingsModel::AcceptedRole).toBool());
    }

    void dismissKeepsItsReasonAcrossReopening() {
        const QString reason = QStringLiteral("memory-bound is what this naive variant teaches");
        QVERIFY(m_window->findings()->dismiss(kRoofline, reason));
        auto onDisk = dismissalsOnDisk(m_review);
        QCOMPARE(onDisk.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(onDisk[0].reason), reason);
        QCOMPARE(onDisk[0].author, std::string("Ana"));
        QVERIFY(cell(kRoofline, 0).data(FindingsModel::DismissedRole).toBool());

        // Close and reopen the review: the task runs again and its roofline finding comes back dismissed.
        m_window->review()->close();
        QSignalSpy findings(m_window->runner(), &kl::app::SimulationRunner::findingsReady);
        QVERIFY(m_window->openPath(m_review));
        QVERIFY(waitForFindings(findings));
        QVERIFY(cell(kRoofline, 0).data(FindingsModel::DismissedRole).toBool());
        QVERIFY(cell(kRoofline, FindingsModel::Status).data().toString().contains(reason));

        QVERIFY(m_window->findings()->restore(kRoofline));
        QCOMPARE(dismissalsOnDisk(m_review).size(), std::size_t{0});
        m_window->review()->undoStack()->undo();
        QCOMPARE(dismissalsOnDisk(m_review).size(), std::size_t{1});
    }

    void withoutAReviewAcceptAndDismissAreOffAndSayWhy() {
        m_window->review()->close();
        auto* pane = m_window->findingsPane();
        QVERIFY(pane->selectKey(kSmall));
        QVERIFY(!pane->acceptButton()->isEnabled());
        QVERIFY(!pane->dismissButton()->isEnabled());
        QVERIFY(pane->acceptButton()->toolTip().contains(QStringLiteral("Open a review file")));
        QVERIFY(!m_window->findings()->accept(kSmall));
        QCOMPARE(annotationsOnDisk(m_review).size(), std::size_t{0});
    }

    void cleanupTestCase() {
        m_window.reset();
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }
};

QTEST_MAIN(FindingsWorkflowTest)
#include "FindingsWorkflowTest.moc"
