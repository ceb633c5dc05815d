#pragma once

#include "review/ReviewTypes.h"
#include "result/SimResult.h"

#include <QColor>
#include <QHash>
#include <QObject>
#include <QSet>

#include <memory>

class QAction;
class QMenu;
class QWidget;

namespace kl::views {
class AnnotationListPane;
class ScorecardPane;
class SourcePane;
class TaskQueueView;
class TimelineView;
} // namespace kl::views

namespace kl::app {

class ReviewSession;

/// Wires the open review to the panes: the task queue, the annotation list, the scorecard, annotation bands on
/// the timeline and marks in the source margins. Creates annotations from the timeline (a dragged range or the
/// selected instruction) and from source selections, navigates to an annotation's anchor, steps through
/// annotations (N / P) and tasks, and asks the reviewer's name once.
///
/// It owns no data: the ReviewSession holds the file, the panes show what it says.
class ReviewController : public QObject {
    Q_OBJECT
public:
    struct Panes {
        QWidget* window = nullptr;
        views::TaskQueueView* taskQueue = nullptr;
        views::AnnotationListPane* annotations = nullptr;
        views::ScorecardPane* scorecard = nullptr;
        views::TimelineView* timeline = nullptr;
        views::SourcePane* nki = nullptr;
        views::SourcePane* cuda = nullptr;
    };

    ReviewController(ReviewSession* session, Panes panes, QObject* parent = nullptr);

    /// Adds the Review menu's actions (annotate, next/previous annotation and task, task status).
    void populateMenu(QMenu* menu);
    /// The run now on screen, so anchors can be turned into times and instructions.
    void setRun(std::shared_ptr<const sim::SimResult> result);
    /// Asks for the reviewer's name when none is known yet; false when the user declines.
    bool ensureReviewer();

    void annotateCurrentSelection();
    void editAnnotation(qint64 id);
    void navigateTo(qint64 id);
    void nextTask(int direction);
    /// The reviewer lens of a team review: annotations on the timeline coloured by reviewer (empty map: by
    /// severity) and those of `hidden` reviewers left off the timeline.
    void setReviewerLens(const QHash<QString, QColor>& colours, const QSet<QString>& hidden);
    /// Shows the review's task with this id (the adjudication view opens a disputed task).
    void showTask(qint64 taskId);

signals:
    /// The user chose a task of the review: the owner traces and simulates the folder.
    void taskChosen(const QString& folder, const QString& title);

private:
    void refreshTasks();
    void refreshAnnotations();
    void refreshScores();
    void chooseTask(int row);
    void openEditor(core::Annotation annotation);
    void toggleResolved(qint64 id);
    void deleteAnnotation(qint64 id);
    void reply(qint64 id);
    [[nodiscard]] std::optional<core::Annotation> findAnnotation(qint64 id) const;
    [[nodiscard]] std::optional<std::uint32_t> indexOfIrId(std::int64_t irId) const;
    void markSourceLines(const std::vector<core::Annotation>& annotations);

    ReviewSession* m_session;
    Panes m_panes;
    std::shared_ptr<const sim::SimResult> m_result;
    bool m_refreshingTasks = false;
    QHash<QString, QColor> m_reviewerColours; ///< empty: annotations coloured by severity
    QSet<QString> m_hiddenReviewers;
};

} // namespace kl::app
