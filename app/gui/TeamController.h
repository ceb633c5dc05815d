#pragma once

#include <QObject>
#include <QStringList>

class QWidget;

namespace kl::views {
class AgreementPane;
}

namespace kl::app {

class ReviewController;
class ReviewSession;

/// Several reviewers on one task set, in the window: File > Merge Reviews, and the Agreement dock (agreement
/// figures, disagreements, adjudication, the reviewer lens on the timeline) kept in step with the open review.
class TeamController : public QObject {
    Q_OBJECT
public:
    TeamController(ReviewSession* session, ReviewController* review, views::AgreementPane* pane, QWidget* window);

    /// Asks for the reviews to merge and where to save the team review, merges, then asks the owner to open it.
    void chooseMerge();
    /// Merges `inputs` into a new review at `output`; on failure `error` says why (every conflict listed).
    [[nodiscard]] bool merge(const QStringList& inputs, const QString& output, QString* error);
    /// Recomputes the agreement figures of the open review (cheap: milliseconds for hundreds of tasks).
    void refresh();

signals:
    void openRequested(const QString& reviewPath);
    void statusMessage(const QString& text);

private:
    ReviewSession* m_session;
    ReviewController* m_review;
    views::AgreementPane* m_pane;
    QWidget* m_window;
};

} // namespace kl::app
