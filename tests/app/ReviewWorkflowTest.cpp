// The reviewer's loop in the real main window: a review made from task folders, a real trace and simulation,
// annotations created from the timeline and the source, undo/redo, navigation and scores, all checked against
// what the review file on disk holds.
#include "gui/MainWindow.h"
#include "gui/ReviewController.h"
#include "gui/ReviewSession.h"
#include "gui/SimulationRunner.h"
#include "gui/SourceLinkController.h"
#include "gui/TrustGate.h"
#include "gui/WorkspaceTrust.h"

#include "review/AnnotationEditor.h"
#include "review/AnnotationListModel.h"
#include "review/AnnotationListPane.h"
#include "review/ReviewFile.h"
#include "review/ScorecardModel.h"
#include "review/ScorecardPane.h"
#include "review/TaskQueueView.h"
#include "common/ReadOnlyBanner.h"
#include "common/TrustPanel.h"
#include "source/SourcePane.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <Qsci/qsciscintilla.h>
#include <nlohmann/json.hpp>

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QPushButton>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTableView>
#include <QAction>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>

using kl::app::MainWindow;

namespace {

// Answers the annotation editor that the next exec() opens: writes `text` and saves with Ctrl+Enter.
void answerEditor(const QString& text) {
    QTimer::singleShot(0, [text] {
        auto* editor = qobject_cast<kl::views::AnnotationEditor*>(QApplication::activeModalWidget());
        QVERIFY(editor != nullptr);
        editor->textEdit()->setPlainText(text);
        editor->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->click();
    });
    // Never hang on a dialog that did not appear as expected: close whatever is still modal.
    QTimer::singleShot(10'000, [] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            modal->close();
        }
    });
}

std::vector<kl::core::Annotation> annotationsOnDisk(const QString& path) {
    auto file = kl::core::ReviewFile::open(path.toStdString());
    if (!file) {
        return {};
    }
    return file->annotations().list().value_or(std::vector<kl::core::Annotation>{});
}

} // namespace

class ReviewWorkflowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_review;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KernelLensTests"));
        QCoreApplication::setApplicationName(QStringLiteral("ReviewWorkflowTest"));
        QSettings().clear();
        QSettings().setValue(QStringLiteral("reviewer"), QStringLiteral("Ana"));
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
        // A folder of task folders: two copies of a bundled example.
        const QString examples = QStringLiteral(KL_SOURCE_DIR "/examples/vector_add_nki");
        for (const QString& name : {QStringLiteral("task_a"), QStringLiteral("task_b")}) {
            QDir().mkpath(m_dir.filePath(name));
            for (const QString& f : QDir(examples).entryList(QDir::Files)) {
                QVERIFY(QFile::copy(examples + QLatin1Char('/') + f, m_dir.filePath(name + QLatin1Char('/') + f)));
            }
        }
        m_review = m_dir.filePath(QStringLiteral("review.klreview"));
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1400, 900);
        m_window->show();
        QSignalSpy finished(m_window->runner(), &kl::app::SimulationRunner::finished);
        QVERIFY(m_window->createReview(m_review, m_dir.path()));
        QCOMPARE(m_window->taskQueue()->model()->rowCount(), 2);
        // Copies of an example outside the bundled examples are someone's folder: trusted on purpose.
        QVERIFY(m_window->isAwaitingTrust());
        m_window->trustGate()->panel()->trustButton()->click();
        QVERIFY2(finished.wait(60'000), "the first task of the review was traced and simulated");
    }

    void annotatingADraggedRangeSavesItToTheFile() {
        auto* timeline = m_window->timelinePage()->timeline();
        timeline->fit();
        const int y = timeline->rowCentreY(2);
        QTest::mousePress(timeline, Qt::LeftButton, {}, QPoint(300, y));
        QTest::mouseMove(timeline, QPoint(500, y));
        QTest::mouseRelease(timeline, Qt::LeftButton, {}, QPoint(500, y));
        const auto range = timeline->selectedRange();
        QVERIFY(range.has_value());
        answerEditor(QStringLiteral("Loads of the next tile wait for the store <b>quotes \" '</b>"));
        m_window->reviewController()->annotateCurrentSelection();
        const auto saved = annotationsOnDisk(m_review);
        QCOMPARE(saved.size(), std::size_t{1});
        QVERIFY(saved[0].anchor.kind == kl::core::AnchorKind::TimeRange);
        QCOMPARE(saved[0].anchor.t0Ns, std::max<qint64>(0, range->first) / 1000);
        QCOMPARE(saved[0].author, std::string("Ana"));
        QCOMPARE(saved[0].text, std::string("Loads of the next tile wait for the store <b>quotes \" '</b>"));
        QCOMPARE(m_window->annotationList()->model()->rowCount(), 1);
        QCOMPARE(timeline->annotationBands().size(), std::size_t{1});
        QCOMPARE(timeline->annotationBands()[0].startPs, saved[0].anchor.t0Ns * 1000);
    }

    void annotatingSelectedSourceLinesAnchorsToThoseLines() {
        QTest::keyClick(m_window->timelinePage()->timeline(), Qt::Key_Escape); // drop the timeline selection
        QVERIFY(!m_window->timelinePage()->timeline()->selectedRange());
        auto* editor = m_window->nkiPane()->editor();
        editor->setFocus();
        editor->setSelection(4, 0, 6, 3); // lines 5-7
        answerEditor(QStringLiteral("Destination-first calls read well"));
        m_window->reviewController()->annotateCurrentSelection();
        const auto saved = annotationsOnDisk(m_review);
        QCOMPARE(saved.size(), std::size_t{2});
        QVERIFY(saved[1].anchor == kl::core::Anchor::nkiLines(5, 7));
        QVERIFY(editor->markersAtLine(5) != 0); // the margin marks the annotated lines
    }

    void undoAndRedoReachTheFile() {
        QUndoStack* undo = m_window->review()->undoStack();
        QVERIFY(undo->canUndo());
        undo->undo();
        QCOMPARE(annotationsOnDisk(m_review).size(), std::size_t{1});
        QCOMPARE(m_window->annotationList()->model()->rowCount(), 1);
        undo->redo();
        QCOMPARE(annotationsOnDisk(m_review).size(), std::size_t{2});
        QCOMPARE(m_window->annotationList()->model()->rowCount(), 2);
    }

    void nextAndPreviousNavigateToTheAnchor() {
        auto* list = m_window->annotationList();
        list->table()->clearSelection();
        list->table()->setCurrentIndex({});
        auto* timeline = m_window->timelinePage()->timeline();
        timeline->fit();
        const auto firstId = list->next();
        const auto first = annotationsOnDisk(m_review)[0];
        QCOMPARE(firstId, first.id);
        // A time-range anchor zooms the timeline onto the range.
        QVERIFY(timeline->visibleStart() <= first.anchor.t0Ns * 1000);
        QVERIFY(timeline->visibleEnd() >= first.anchor.t1Ns * 1000);
        QVERIFY(timeline->visibleEnd() - timeline->visibleStart() < timeline->rows()->endTime());
        const auto secondId = list->next();
        QVERIFY(secondId != firstId);
        QCOMPARE(m_window->nkiPane()->editor()->hasSelectedText(), true);
        QCOMPARE(list->previous(), firstId);
    }

    void resolvingAndDeletingAreUndoable() {
        const auto id = annotationsOnDisk(m_review)[0].id;
        emit m_window->annotationList()->resolveToggled(id);
        QVERIFY(annotationsOnDisk(m_review)[0].resolved);
        emit m_window->annotationList()->deleteRequested(id);
        QCOMPARE(annotationsOnDisk(m_review).size(), std::size_t{1});
        m_window->review()->undoStack()->undo();
        const auto back = annotationsOnDisk(m_review);
        QCOMPARE(back.size(), std::size_t{2});
        QCOMPARE(back[0].id, id);
        QVERIFY(back[0].resolved);
    }

    void editUndoUndoesALinkEdit() {
        // One undo stack: a CUDA <-> NKI link is a review edit like an annotation, and Edit > Undo takes it back.
        auto* links = m_window->sourceLinks();
        QUndoStack* stack = m_window->review()->undoStack();
        QCOMPARE(links->undoStack(), stack);
        const auto select = [](kl::views::SourcePane* pane, int first, int last) {
            pane->editor()->setSelection(first - 1, 0, last - 1, pane->editor()->text(last - 1).size() - 1);
        };
        select(m_window->cudaPane(), 20, 22);
        select(m_window->nkiPane(), 30, 31);
        const auto before = links->links().entries().size();
        const int depth = stack->index();
        QVERIFY(links->linkSelection());
        QCOMPARE(links->links().entries().size(), before + 1);
        QCOMPARE(stack->index(), depth + 1);
        QMenu* edit = nullptr;
        for (QAction* menu : m_window->menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&Edit")) {
                edit = menu->menu();
            }
        }
        QVERIFY(edit != nullptr);
        QAction* undo = edit->actions().front();
        QVERIFY2(stack->undoText().startsWith(QStringLiteral("Link CUDA ")), qPrintable(stack->undoText()));
        QVERIFY2(undo->text().endsWith(stack->undoText()), qPrintable(undo->text())); // Edit > Undo names the link
        undo->trigger();
        QCOMPARE(links->links().entries().size(), before);
        QCOMPARE(stack->index(), depth);  // the review edits made before the link are still there to undo
        edit->actions().at(1)->trigger(); // Edit > Redo
        QCOMPARE(links->links().entries().size(), before + 1);
        undo->trigger();
        QCOMPARE(links->links().entries().size(), before);
    }

    void scoringAnItemUpdatesTheScorecard() {
        auto file = kl::core::ReviewFile::open(m_review.toStdString());
        QVERIFY(file.has_value());
        const auto& item = file->rubric().areas.front().items.front();
        const int top = item.scale.maxValue();
        // Through the item's score box, as the reviewer does it.
        kl::views::ScorecardPane* pane = m_window->scorecard();
        const QModelIndex cell =
            pane->model()->indexOfItem(QString::fromStdString(item.id), kl::views::ScorecardModel::ScoreColumn);
        auto* box = qobject_cast<QComboBox*>(pane->tree()->indexWidget(cell));
        QVERIFY(box != nullptr);
        box->setCurrentIndex(box->findData(top));
        emit box->activated(box->currentIndex());
        auto reopened = kl::core::ReviewFile::open(m_review.toStdString());
        const auto scores = reopened->scores().list(*m_window->review()->currentTask());
        QVERIFY(scores.has_value());
        QCOMPARE(scores->size(), std::size_t{1});
        QCOMPARE(scores->front().value, top);
        QCOMPARE(scores->front().reviewer, std::string("Ana"));
        QVERIFY(m_window->scorecard()->resultText().contains(QStringLiteral("INCOMPLETE")));
        QCOMPARE(cell.data(Qt::EditRole).toInt(), top); // the saved score is what the pane's model shows
        QCOMPARE(box->currentData().toInt(), top);
        m_window->review()->undoStack()->undo(); // Edit > Undo takes the score back, and the box follows
        QCOMPARE(box->currentData().toInt(), kl::views::ScorecardModel::kUnscored);
        m_window->review()->undoStack()->redo();
        QCOMPARE(box->currentData().toInt(), top);
    }

    void nextTaskSwitchesTheQueueAndMarksProgress() {
        QSignalSpy finished(m_window->runner(), &kl::app::SimulationRunner::finished);
        m_window->reviewController()->nextTask(1);
        QCOMPARE(m_window->taskQueue()->currentRow(), 1);
        QVERIFY(finished.wait(60'000));
        QCOMPARE(m_window->annotationList()->model()->rowCount(), 0); // the other task has none yet
        auto file = kl::core::ReviewFile::open(m_review.toStdString());
        const auto tasks = file->tasks().list();
        QVERIFY(tasks->at(1).status == kl::core::TaskStatus::InProgress);
        QVERIFY(!file->runs().list(tasks->at(1).id)->empty()); // the run was recorded in the review
    }

    void markingDoneAndReplyingAreUndoable() {
        kl::app::ReviewSession* session = m_window->review();
        const std::int64_t task = *session->currentTask();
        const auto statusOnDisk = [&] {
            return kl::core::ReviewFile::open(m_review.toStdString())->tasks().get(task)->status;
        };
        QVERIFY(statusOnDisk() == kl::core::TaskStatus::InProgress);
        QSignalSpy tasksChanged(session, &kl::app::ReviewSession::tasksChanged);
        kl::views::TaskQueueView* queue = m_window->taskQueue();
        const int row = queue->currentRow();
        const QPersistentModelIndex queued(queue->model()->index(row, 0)); // a reset would invalidate it
        session->setTaskStatus(task, kl::core::TaskStatus::Done);
        QVERIFY(statusOnDisk() == kl::core::TaskStatus::Done);
        // The queue's row shows the new status in place: the same row stays current, its tooltip says done.
        QCOMPARE(queue->currentRow(), row);
        QVERIFY(queued.isValid());
        QVERIFY2(queued.data().toString().startsWith(QStringLiteral("\u25CF")), qPrintable(queued.data().toString()));
        QVERIFY2(queued.data(Qt::ToolTipRole).toString().contains(QStringLiteral("done")),
                 qPrintable(queued.data(Qt::ToolTipRole).toString()));
        QCOMPARE(session->undoStack()->undoText(), QStringLiteral("Mark task done"));
        session->undoStack()->undo();
        QVERIFY(statusOnDisk() == kl::core::TaskStatus::InProgress);
        QVERIFY(tasksChanged.count() >= 2); // the queue redraws after the edit and after its undo

        kl::core::Annotation note;
        note.anchor = kl::core::Anchor::timeRange(0, 1000);
        note.severity = kl::core::Severity::Minor;
        note.text = "a note to answer";
        session->addAnnotation(note);
        const auto annotations = session->annotations();
        QVERIFY(!annotations.empty());
        const std::int64_t id = annotations.back().id;
        session->addReply(id, QStringLiteral("answered"));
        QCOMPARE(session->replies(id).size(), std::size_t{1});
        session->undoStack()->undo();
        QVERIFY(session->replies(id).empty());
        session->undoStack()->redo();
        QCOMPARE(session->replies(id).size(), std::size_t{1});
        QCOMPARE(session->replies(id).front().author, std::string("Ana"));

        // The reply dialog shows the thread it answers, as plain text (markup in a note stays text).
        QString shown;
        QTimer::singleShot(0, [&shown] {
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog != nullptr);
            shown = dialog->labelText();
            for (QLabel* label : dialog->findChildren<QLabel*>()) {
                QCOMPARE(label->textFormat(), Qt::PlainText);
            }
            dialog->setTextValue(QStringLiteral("second answer"));
            dialog->accept();
        });
        emit m_window->annotationList()->replyRequested(id);
        QVERIFY2(shown.contains(QStringLiteral("a note to answer")) && shown.contains(QStringLiteral("answered")),
                 qPrintable(shown));
        QCOMPARE(session->replies(id).size(), std::size_t{2});
    }

    void aRunIsRecordedAsItsSummaryNotItsWholeTimeline() {
        auto file = kl::core::ReviewFile::open(m_review.toStdString());
        QVERIFY(file.has_value());
        const auto task = m_window->review()->currentTask();
        QVERIFY(task.has_value());
        const auto runs = file->runs().list(*task).value_or(std::vector<kl::core::SimRun>{});
        QVERIFY(!runs.empty());
        const auto json = nlohmann::json::parse(runs.back().summaryJson, nullptr, false);
        QVERIFY(json.is_object() && json.contains("summary"));
        QVERIFY2(!json.contains("instructions"), "the per-instruction table stays out of the review file");
    }

    void saveAsContinuesInACopyAndLeavesTheOriginal() {
        auto* banner = m_window->findChild<kl::views::ReadOnlyBanner*>();
        QVERIFY(banner != nullptr);
        QVERIFY(banner->isHidden()); // a writable review has no banner
        const std::size_t before = annotationsOnDisk(m_review).size();
        QVERIFY(before > 0);
        const QString copy = m_dir.filePath(QStringLiteral("copy.klreview"));
        QVERIFY(m_window->saveReviewAs(copy));
        QCOMPARE(m_window->review()->path(), copy);
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("copy.klreview")));
        QCOMPARE(annotationsOnDisk(copy).size(), before);
        // The copy holds the same trusted kernels: it runs without asking again.
        QVERIFY(!m_window->isAwaitingTrust());
        kl::core::Annotation extra;
        extra.anchor = kl::core::Anchor::nkiLines(1, 1);
        extra.text = "only in the copy";
        m_window->review()->addAnnotation(extra);
        QCOMPARE(annotationsOnDisk(copy).size(), before + 1);
        QCOMPARE(annotationsOnDisk(m_review).size(), before);
        QVERIFY(!m_window->saveReviewAs(copy)); // never written over
    }

    void aFileThatIsNotAReviewIsRefusedAndLeftAlone() {
        const QString bogus = m_dir.filePath(QStringLiteral("notes.klreview"));
        QFile f(bogus);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("these are my notes, not a review");
        f.close();
        QTimer::singleShot(0, [] {
            if (QWidget* box = QApplication::activeModalWidget()) {
                box->close();
            }
        });
        QVERIFY(!m_window->openPath(bogus));
        QFile again(bogus);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray("these are my notes, not a review"));
        QVERIFY(m_window->problems()->count() > 0);
    }

    void runMenuSpreadsTheProgramsOverTwoLogicalCores() {
        const auto entry = [this](const QString& prefix) -> QAction* {
            for (QAction* action : m_window->findChildren<QAction*>()) {
                if (action->text().startsWith(prefix)) {
                    return action;
                }
            }
            return nullptr;
        };
        QAction* trn2 = entry(QStringLiteral("Hardware: trn2"));
        QAction* two = entry(QStringLiteral("Logical Cores: 2"));
        QAction* automatic = entry(QStringLiteral("Logical Cores: Automatic"));
        QVERIFY(trn2 != nullptr && two != nullptr && automatic != nullptr);
        QVERIFY(automatic->isChecked()); // a task opens with its own degree
        QSignalSpy finished(m_window->runner(), &kl::app::SimulationRunner::finished);
        trn2->trigger();
        QVERIFY2(finished.wait(60'000), "ran on trn2");
        QCOMPARE(m_window->timelinePage()->timeline()->rows()->coreCount(), 1u);
        two->trigger();
        QVERIFY(two->isChecked() && !automatic->isChecked());
        QVERIFY2(finished.wait(60'000), "ran again with LNC 2");
        QCOMPARE(m_window->timelinePage()->timeline()->rows()->coreCount(), 2u); // a "core N" group each
        QVERIFY2(m_window->statusSummary().contains(QStringLiteral("trn2")), qPrintable(m_window->statusSummary()));
        automatic->trigger();
        QVERIFY2(finished.wait(60'000), "ran again on one core");
        QCOMPARE(m_window->timelinePage()->timeline()->rows()->coreCount(), 1u);
    }

    void cleanupTestCase() {
        m_window.reset();
        QSettings().clear();
        QFile::remove(kl::app::WorkspaceTrust::defaultStorePath());
    }
};

QTEST_MAIN(ReviewWorkflowTest)
#include "ReviewWorkflowTest.moc"
