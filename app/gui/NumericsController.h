#pragma once

#include "gui/TrustGate.h"
#include "numerics/NumericsResult.h"
#include "trace/NumericsOptions.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace kl::core {
struct RunOutcome;
}

namespace kl::views {
class NumericsPane;
class TimelineView;
} // namespace kl::views

namespace kl::app {

class ReviewSession;
class SourceLinkController;

/// Wires the Numerics dock (views::NumericsPane) to the window: Run > Numerics... asks for the settings, checks the
/// trust gate (a kernel runs only with the user's consent; when it is not trusted yet the window shows the trust
/// prompt through trustNeeded()), and runs the front end in value mode (core::runTrace with NumericsOptions) on a
/// worker thread with the pane's busy bar and Cancel. Each run gets a generation number: a result that arrives
/// after Cancel, a newer run or another task (setTarget) is dropped. A finished run is shown, kept in the review
/// when the target is the review's current task, and listed with the task's stored runs. A failed run (reference
/// raises, shapes differ, a bad input file) goes to Problems with its file and line.
///
/// Choosing a top-error instruction selects it on the timeline when the numerics run traced the same arguments as
/// the timed run on screen (core::irInstructionOf), else shows its file:line in the NKI pane.
class NumericsController : public QObject {
    Q_OBJECT
public:
    struct Panes {
        QWidget* window = nullptr;
        views::NumericsPane* pane = nullptr;
        views::TimelineView* timeline = nullptr;
    };

    NumericsController(ReviewSession* session, SourceLinkController* sourceLinks, TrustGate* gate, Panes panes,
                       QObject* parent = nullptr);
    ~NumericsController() override;

    /// What Run > Numerics runs: a task folder or kernel file (`partOfReview`: the review's current task). A new
    /// target drops any run in flight and shows the target's stored runs.
    void setTarget(const TrustGate::Target& target, bool partOfReview);
    /// The timed run on screen, for links from instructions to the timeline.
    void setTimedRun(std::shared_ptr<const core::RunOutcome> run);
    /// Run > Numerics...: the settings dialog, then run().
    void runWithDialog();
    /// Runs the target on values with `options` (after the trust gate allows it). False when it did not start.
    bool run(const core::NumericsOptions& options);
    void cancel();
    /// Reads a numerics document (`kernellens-cli numerics --json`) and shows it; a bad one goes to Problems.
    bool openDocument(const QString& path);
    /// Shows a numerics result as the run just made (also what tests use).
    void showResult(std::shared_ptr<const core::NumericsResult> result);
    /// Goes to a top-error instruction: the timeline when it links there, else its line.
    void goToInstruction(qint64 index, const QString& file, int line);

    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] quint64 generation() const { return m_generation; }

signals:
    void trustNeeded();
    void problem(const QString& text, const QString& file, int line);
    void statusMessage(const QString& text);
    /// A run was delivered and shown (after it was kept in the review).
    void finished(std::shared_ptr<const kl::core::NumericsResult> result);
    /// goToInstruction chose the timeline (index >= 0) or the NKI line (-1).
    void instructionShown(qint64 timelineIndex);

private:
    struct Delivery;
    void deliver(quint64 generation, std::shared_ptr<Delivery> delivery);
    /// The pane's runs: `latest` (stored under `storedId`, 0 when not stored) and the task's stored runs.
    void showRuns(std::shared_ptr<const core::NumericsResult> latest, std::int64_t storedId);
    void setRunning(bool running);

    ReviewSession* m_session;
    SourceLinkController* m_sourceLinks;
    TrustGate* m_gate;
    Panes m_panes;
    TrustGate::Target m_target;
    bool m_partOfReview = false;
    std::shared_ptr<const core::RunOutcome> m_timedRun;
    core::NumericsOptions m_lastOptions;
    quint64 m_generation = 0;
    bool m_running = false;
    std::shared_ptr<std::atomic<quint64>> m_live; ///< the generation workers compare against to cancel
};

} // namespace kl::app
