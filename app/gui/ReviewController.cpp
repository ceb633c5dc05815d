#include "gui/ReviewController.h"

#include "gui/ReviewSession.h"

#include "review/AnnotationEditor.h"
#include "review/AnnotationListModel.h"
#include "review/AnnotationListPane.h"
#include "review/ScorecardPane.h"
#include "review/TaskQueueModel.h"
#include "review/TaskQueueView.h"
#include "source/SourcePane.h"
#include "timeline/TimelineView.h"

#include <Qsci/qsciscintilla.h>

#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace kl::app {

namespace {

constexpr int kAnnotationMarker = 24; // QScintilla marker number for annotated lines
constexpr std::int64_t kPsPerNs = 1000;

} // namespace

ReviewController::ReviewController(ReviewSession* session, Panes panes, QObject* parent)
    : QObject(parent), m_session(session), m_panes(panes) {
    connect(m_session, &ReviewSession::tasksChanged, this, &ReviewController::refreshTasks);
    connect(m_session, &ReviewSession::annotationsChanged, this, &ReviewController::refreshAnnotations);
    connect(m_session, &ReviewSession::scoresChanged, this, &ReviewController::refreshScores);
    connect(m_session, &ReviewSession::opened, this, [this] {
        m_panes.scorecard->setRubric(&m_session->file()->rubric());
        refreshTasks();
        if (m_panes.taskQueue->taskModel()->rowCount() > 0) {
            m_panes.taskQueue->setCurrentRow(0);
        }
    });
    connect(m_session, &ReviewSession::closed, this, [this] {
        m_panes.scorecard->setRubric(nullptr);
        refreshAnnotations();
    });
    connect(m_panes.taskQueue, &views::TaskQueueView::currentRowChanged, this, &ReviewController::chooseTask);
    auto* list = m_panes.annotations;
    connect(list, &views::AnnotationListPane::annotationActivated, this, &ReviewController::navigateTo);
    connect(list, &views::AnnotationListPane::editRequested, this, &ReviewController::editAnnotation);
    connect(list, &views::AnnotationListPane::resolveToggled, this, &ReviewController::toggleResolved);
    connect(list, &views::AnnotationListPane::deleteRequested, this, &ReviewController::deleteAnnotation);
    connect(list, &views::AnnotationListPane::replyRequested, this, &ReviewController::reply);
    connect(m_panes.timeline, &views::TimelineView::annotationClicked, this, [this](qint64 id) {
        m_panes.annotations->selectId(id);
        navigateTo(id);
    });
    connect(m_panes.scorecard, &views::ScorecardPane::scoreChosen, this, [this](const QString& item, int value) {
        if (ensureReviewer()) {
            m_session->setScore(item.toStdString(), value < 0 ? std::nullopt : std::optional(value));
        }
    });
    m_session->setReviewer(QSettings().value(QStringLiteral("reviewer")).toString());
}

void ReviewController::populateMenu(QMenu* menu) {
    QAction* annotate =
        menu->addAction(tr("&Annotate Selection..."), this, &ReviewController::annotateCurrentSelection);
    annotate->setShortcuts({QKeySequence(QStringLiteral("M")), QKeySequence(QStringLiteral("Ctrl+M"))});
    annotate->setToolTip(tr("Annotate the dragged time range, the selected instruction, or the selected source lines"));
    menu->addAction(tr("&Next Annotation"), m_panes.annotations, &views::AnnotationListPane::next)
        ->setShortcut(QKeySequence(QStringLiteral("N")));
    menu->addAction(tr("&Previous Annotation"), m_panes.annotations, &views::AnnotationListPane::previous)
        ->setShortcut(QKeySequence(QStringLiteral("P")));
    menu->addSeparator();
    menu->addAction(tr("Next &Task"), this, [this] { nextTask(1); })
        ->setShortcut(QKeySequence(QStringLiteral("Alt+Down")));
    menu->addAction(tr("Previous T&ask"), this, [this] { nextTask(-1); })
        ->setShortcut(QKeySequence(QStringLiteral("Alt+Up")));
    QMenu* status = menu->addMenu(tr("Task &Status"));
    const std::pair<QString, core::TaskStatus> kStatuses[] = {{tr("To Do"), core::TaskStatus::Todo},
                                                              {tr("In Progress"), core::TaskStatus::InProgress},
                                                              {tr("Done"), core::TaskStatus::Done}};
    for (const auto& [label, value] : kStatuses) {
        QAction* action = status->addAction(label, this, [this, value = value] {
            if (const auto task = m_session->currentTask()) {
                m_session->setTaskStatus(*task, value);
            }
        });
        if (value == core::TaskStatus::Done) {
            action->setShortcut(QKeySequence(QStringLiteral("Ctrl+D")));
        }
    }
    menu->addSeparator();
    menu->addAction(tr("Change Reviewer &Name..."), this, [this] {
        QSettings().remove(QStringLiteral("reviewer"));
        m_session->setReviewer({});
        ensureReviewer();
    });
}

bool ReviewController::ensureReviewer() {
    if (!m_session->reviewer().isEmpty()) {
        return true;
    }
    bool ok = false;
    const QString name = QInputDialog::getText(m_panes.window, tr("Reviewer"),
                                               tr("Your name, recorded on every annotation and score you make:"),
                                               QLineEdit::Normal, qEnvironmentVariable("USER"), &ok)
                             .trimmed();
    if (!ok || name.isEmpty()) {
        return false;
    }
    QSettings().setValue(QStringLiteral("reviewer"), name);
    m_session->setReviewer(name);
    return true;
}

void ReviewController::setRun(std::shared_ptr<const sim::SimResult> result) {
    m_result = std::move(result);
    refreshAnnotations();
}

void ReviewController::refreshTasks() {
    m_refreshingTasks = true;
    const auto current = m_session->currentTask();
    m_panes.taskQueue->taskModel()->setTasks(m_session->tasks());
    m_panes.taskQueue->setCurrentRow(current ? m_panes.taskQueue->taskModel()->rowOfTask(*current) : -1);
    m_refreshingTasks = false;
}

void ReviewController::chooseTask(int row) {
    if (m_refreshingTasks || row < 0 || !m_session->isOpen()) {
        return;
    }
    const std::optional<qint64> taskId = m_panes.taskQueue->taskModel()->taskIdAt(row);
    if (!taskId || m_session->currentTask() == *taskId) {
        return;
    }
    m_session->setCurrentTask(*taskId);
    QString error;
    const QString folder = m_session->materializeTask(*taskId, &error);
    if (folder.isEmpty()) {
        QMessageBox::warning(m_panes.window, tr("Task"), error);
        return;
    }
    refreshTasks();
    for (const auto& task : m_session->tasks()) {
        if (task.id == *taskId) {
            emit taskChosen(folder, QString::fromStdString(task.title));
        }
    }
}

void ReviewController::nextTask(int direction) {
    const int count = m_panes.taskQueue->taskModel()->rowCount();
    if (count > 0) {
        m_panes.taskQueue->setCurrentRow((m_panes.taskQueue->currentRow() + direction + count) % count);
    }
}

void ReviewController::setReviewerLens(const QHash<QString, QColor>& colours, const QSet<QString>& hidden) {
    m_reviewerColours = colours;
    m_hiddenReviewers = hidden;
    refreshAnnotations();
}

void ReviewController::showTask(qint64 taskId) {
    const auto tasks = m_session->tasks();
    for (int row = 0; row < static_cast<int>(tasks.size()); ++row) {
        if (tasks[static_cast<std::size_t>(row)].id == taskId) {
            m_panes.taskQueue->setCurrentRow(row);
        }
    }
}

void ReviewController::refreshAnnotations() {
    const auto annotations = m_session->annotations();
    m_panes.annotations->setAnnotations(annotations);
    std::vector<views::AnnotationBand> bands;
    int number = 0;
    for (const auto& a : annotations) {
        ++number;
        const QString author = QString::fromStdString(a.author);
        if (m_hiddenReviewers.contains(author)) {
            continue;
        }
        views::AnnotationBand band;
        band.number = number;
        band.id = a.id;
        band.colour = m_reviewerColours.value(author, views::AnnotationListModel::severityColour(a.severity));
        if (a.anchor.kind == core::AnchorKind::TimeRange) {
            band.startPs = a.anchor.t0Ns * kPsPerNs;
            band.endPs = a.anchor.t1Ns * kPsPerNs;
        } else if (a.anchor.kind == core::AnchorKind::Instruction) {
            const auto index = indexOfIrId(a.anchor.instructionId);
            if (!index) {
                continue;
            }
            band.startPs = m_result->timeline.mainStartPs(*index);
            band.endPs = m_result->timeline.endPs(*index);
        } else {
            continue; // line anchors are marked in the source margins
        }
        bands.push_back(band);
    }
    m_panes.timeline->setAnnotationBands(std::move(bands));
    markSourceLines(annotations);
}

void ReviewController::markSourceLines(const std::vector<core::Annotation>& annotations) {
    for (views::SourcePane* pane : {m_panes.nki, m_panes.cuda}) {
        QsciScintilla* editor = pane->editor();
        editor->markerDefine(QsciScintilla::Bookmark, kAnnotationMarker);
        editor->setMarkerBackgroundColor(QColor(230, 126, 34), kAnnotationMarker);
        editor->markerDeleteAll(kAnnotationMarker);
        // Margin 1 shows symbols; let it show ours beside whatever else it shows.
        editor->setMarginMarkerMask(1, editor->marginMarkerMask(1) | (1 << kAnnotationMarker));
        editor->setMarginWidth(1, std::max(editor->marginWidth(1), 14));
    }
    for (const auto& a : annotations) {
        views::SourcePane* pane = a.anchor.kind == core::AnchorKind::NkiLines    ? m_panes.nki
                                  : a.anchor.kind == core::AnchorKind::CudaLines ? m_panes.cuda
                                                                                 : nullptr;
        if (pane == nullptr) {
            continue;
        }
        for (int line = a.anchor.firstLine; line <= a.anchor.lastLine && line - a.anchor.firstLine < 10'000; ++line) {
            pane->editor()->markerAdd(line - 1, kAnnotationMarker);
        }
    }
}

void ReviewController::refreshScores() {
    m_panes.scorecard->setScorecard(m_session->scorecard());
}

std::optional<std::uint32_t> ReviewController::indexOfIrId(std::int64_t irId) const {
    if (!m_result) {
        return std::nullopt;
    }
    const auto& tl = m_result->timeline;
    // Program order follows the IR's ids, so the index usually equals the id: check that first.
    if (irId >= 0 && static_cast<std::size_t>(irId) < tl.size() && tl.irId(static_cast<std::size_t>(irId)) == irId) {
        return static_cast<std::uint32_t>(irId);
    }
    for (std::uint32_t i = 0; i < tl.size(); ++i) {
        if (tl.irId(i) == irId) {
            return i;
        }
    }
    return std::nullopt;
}

void ReviewController::annotateCurrentSelection() {
    if (!m_session->isOpen()) {
        QMessageBox::information(m_panes.window, tr("Annotate"),
                                 tr("Annotations live in a review file. Create one with File > New Review from "
                                    "Folder, or open one with Ctrl+Shift+O."));
        return;
    }
    if (!m_session->currentTask() || !ensureReviewer()) {
        return;
    }
    core::Annotation a;
    int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
    auto selectedLines = [&](views::SourcePane* pane) {
        if (!pane->editor()->hasSelectedText()) {
            return false;
        }
        pane->editor()->getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        return true;
    };
    const bool sourceFocused = m_panes.nki->editor()->hasFocus() || m_panes.cuda->editor()->hasFocus();
    if (sourceFocused && selectedLines(m_panes.nki)) {
        a.anchor = core::Anchor::nkiLines(lineFrom + 1, lineTo + 1);
    } else if (sourceFocused && selectedLines(m_panes.cuda)) {
        a.anchor = core::Anchor::cudaLines(lineFrom + 1, lineTo + 1);
    } else if (const auto range = m_panes.timeline->selectedRange()) {
        a.anchor = core::Anchor::timeRange(std::max<sim::TimePs>(0, range->first) / kPsPerNs, range->second / kPsPerNs);
    } else if (const auto index = m_panes.timeline->selectedInstruction(); index && m_result) {
        a.anchor = core::Anchor::instruction(m_result->timeline.irId(*index));
    } else if (selectedLines(m_panes.nki)) {
        a.anchor = core::Anchor::nkiLines(lineFrom + 1, lineTo + 1);
    } else if (selectedLines(m_panes.cuda)) {
        a.anchor = core::Anchor::cudaLines(lineFrom + 1, lineTo + 1);
    } else {
        QMessageBox::information(m_panes.window, tr("Annotate"),
                                 tr("Select something to annotate first: drag a time range or click an instruction "
                                    "on the timeline, or select lines in the NKI or CUDA source."));
        return;
    }
    openEditor(a);
}

void ReviewController::openEditor(core::Annotation annotation) {
    views::AnnotationEditor editor(m_session->file()->rubric(), std::move(annotation), m_panes.window);
    if (editor.exec() != QDialog::Accepted) {
        return;
    }
    const core::Annotation edited = editor.annotation();
    if (edited.id == 0) {
        m_session->addAnnotation(edited);
    } else {
        m_session->updateAnnotation(edited);
    }
}

std::optional<core::Annotation> ReviewController::findAnnotation(qint64 id) const {
    for (const auto& a : m_panes.annotations->model()->annotations()) {
        if (a.id == id) {
            return a;
        }
    }
    return std::nullopt;
}

void ReviewController::editAnnotation(qint64 id) {
    if (const auto a = findAnnotation(id)) {
        openEditor(*a);
    }
}

void ReviewController::toggleResolved(qint64 id) {
    if (auto a = findAnnotation(id)) {
        a->resolved = !a->resolved;
        m_session->updateAnnotation(*a);
    }
}

void ReviewController::deleteAnnotation(qint64 id) {
    m_session->deleteAnnotation(id); // undoable: Edit > Undo brings it back with its replies
}

void ReviewController::reply(qint64 id) {
    if (!ensureReviewer()) {
        return;
    }
    // The dialog shows the thread it answers: the annotation and the replies so far, each by its author.
    QString thread;
    if (const auto a = findAnnotation(id)) {
        thread = tr("%1 wrote: %2").arg(QString::fromStdString(a->author), QString::fromStdString(a->text));
        for (const core::Reply& r : m_session->replies(id)) {
            thread += QStringLiteral("\n") +
                      tr("%1 replied: %2").arg(QString::fromStdString(r.author), QString::fromStdString(r.text));
        }
    }
    const int kMaxShown = 1200; // a long thread is cut from the front: the latest replies matter most
    if (thread.size() > kMaxShown) {
        thread = QStringLiteral("...") + thread.right(kMaxShown);
    }
    QInputDialog dialog(m_panes.window);
    dialog.setWindowTitle(tr("Reply"));
    dialog.setOption(QInputDialog::UsePlainTextEditForTextInput);
    dialog.setLabelText(thread.isEmpty() ? tr("Reply:") : thread + QStringLiteral("\n\n") + tr("Your reply:"));
    for (QLabel* label : dialog.findChildren<QLabel*>()) {
        label->setTextFormat(Qt::PlainText); // reviewers' text is shown as written, never as markup
        label->setWordWrap(true);
    }
    const bool ok = dialog.exec() == QDialog::Accepted;
    const QString text = dialog.textValue();
    if (ok && !text.trimmed().isEmpty()) {
        m_session->addReply(id, text);
    }
}

void ReviewController::navigateTo(qint64 id) {
    const auto a = findAnnotation(id);
    if (!a) {
        return;
    }
    auto* timeline = m_panes.timeline;
    switch (a->anchor.kind) {
    case core::AnchorKind::TimeRange: {
        const sim::TimePs t0 = a->anchor.t0Ns * kPsPerNs;
        const sim::TimePs t1 = std::max(t0 + 1000, a->anchor.t1Ns * kPsPerNs);
        const sim::TimePs margin = (t1 - t0) / 4;
        timeline->setVisibleRange(t0 - margin, t1 + margin);
        break;
    }
    case core::AnchorKind::Instruction:
        if (const auto index = indexOfIrId(a->anchor.instructionId)) {
            timeline->selectInstruction(*index);
            const auto& tl = m_result->timeline;
            const auto span = timeline->visibleEnd() - timeline->visibleStart();
            const auto centre = (tl.mainStartPs(*index) + tl.endPs(*index)) / 2;
            timeline->setVisibleRange(centre - span / 2, centre + span / 2);
        }
        break;
    case core::AnchorKind::NkiLines:
    case core::AnchorKind::CudaLines: {
        views::SourcePane* pane = a->anchor.kind == core::AnchorKind::NkiLines ? m_panes.nki : m_panes.cuda;
        pane->showLine(a->anchor.firstLine);
        pane->editor()->setSelection(a->anchor.firstLine - 1, 0, a->anchor.lastLine, 0);
        break;
    }
    }
}

} // namespace kl::app
