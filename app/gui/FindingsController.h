#pragma once

#include "gui/RunFindings.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QWidget;

namespace kl::core {
struct RunOutcome;
}

namespace kl::views {
class FindingsPane;
class SourcePane;
class TimelineView;
} // namespace kl::views

namespace kl::app {

class ReviewController;
class ReviewSession;
class SourceLinkController;

/// Wires the Findings dock to the run and the review: shows the findings SimulationRunner computed after each
/// run, takes the reviewer to a finding's evidence (its instructions dimmed-in and its time span zoomed on the
/// timeline, its NKI and CUDA lines highlighted), and turns decisions into review edits: Accept writes the
/// annotation findings::annotationDraft pre-fills, Dismiss records the reason, Restore removes it; all three
/// through ReviewSession's undo stack, so Ctrl+Z takes them back.
///
/// Accept and Dismiss need an open, writable review whose current task is the run on screen; otherwise the dock
/// says why. It owns no data: the review file holds the decisions, which are re-read whenever the review changes.
class FindingsController : public QObject {
    Q_OBJECT
public:
    struct Panes {
        QWidget* window = nullptr;
        views::FindingsPane* findings = nullptr;
        views::TimelineView* timeline = nullptr;
        views::SourcePane* nki = nullptr;
        views::SourcePane* cuda = nullptr;
    };

    FindingsController(ReviewSession* session, ReviewController* review, SourceLinkController* sourceLinks, Panes panes,
                       QObject* parent = nullptr);

    /// A new run is on screen (`partOfReview`: it is the review's current task); its findings follow.
    void setRun(std::shared_ptr<const core::RunOutcome> run, bool partOfReview);
    /// The findings of the run on screen (SimulationRunner::findingsReady).
    void setFindings(std::shared_ptr<const RunFindings> findings);
    /// No run (a failed or cancelled one): the dock says `why`.
    void clear(const QString& why);

    void goToEvidence(const QString& key);
    bool accept(const QString& key);
    bool dismiss(const QString& key, const QString& reason);
    bool restore(const QString& key);
    /// Asks for a reason (a dialog), then dismisses; false when the reviewer cancels.
    bool askAndDismiss(const QString& key);

    [[nodiscard]] std::shared_ptr<const RunFindings> findings() const { return m_findings; }
    [[nodiscard]] const std::shared_ptr<const core::RunOutcome>& run() const { return m_run; }

signals:
    void statusMessage(const QString& text);

private:
    [[nodiscard]] const core::findings::Finding* findingOf(const QString& key) const;
    /// nullopt when Accept/Dismiss may write to the review, else why not (empty: no review is open).
    [[nodiscard]] std::optional<QString> whyNoReview() const;
    [[nodiscard]] bool canDecide() const { return !whyNoReview().has_value(); }
    void refreshDecisions();
    void showSourceEvidence(const core::findings::Finding& finding);

    ReviewSession* m_session;
    ReviewController* m_review;
    SourceLinkController* m_sourceLinks;
    Panes m_panes;
    std::shared_ptr<const core::RunOutcome> m_run;
    std::shared_ptr<const RunFindings> m_findings;
    bool m_partOfReview = false;
};

} // namespace kl::app
