#pragma once

#include "gui/JobGeneration.h"
#include "gui/RunDisplay.h"
#include "gui/RunFindings.h"
#include "gui/RunHeadStart.h"
#include "run/RunPipeline.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <utility>

namespace kl::app {

/// Runs trace + simulate on a worker thread and reports back on the GUI thread through queued signals.
///
/// Each start() gets a new generation number (JobGeneration); a result from an older generation (the user opened
/// another task or cancelled meanwhile) is dropped, never shown. cancel() stops the front end subprocess at once; a
/// simulation already running finishes on its worker and is then dropped.
///
/// After a run is delivered (finished), the same worker runs the findings rules over it and delivers them
/// (findingsReady) under the same generation, so the timeline does not wait for the rules.
///
/// Progress: stageChanged carries a line with the figures of the stages behind (instructions traced, MB of IR
/// read, instructions simulated) and the time since start(); while a run is going the line is sent again every
/// quarter second so that its elapsed time moves during a long trace.
class SimulationRunner : public QObject {
    Q_OBJECT
public:
    explicit SimulationRunner(QObject* parent = nullptr);
    ~SimulationRunner() override;

    void start(const core::RunRequest& request);
    void cancel();
    /// A run begun before the window (RunHeadStart): the next start() adopts it when it asks for the same request
    /// and cancels it otherwise. Offering another (or null) cancels one not adopted yet.
    void offerHeadStart(std::shared_ptr<RunHeadStart> headStart);
    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] quint64 generation() const { return m_jobs.current(); }
    /// The status line for a progress report (what stageChanged carries).
    [[nodiscard]] static QString progressText(const core::RunProgress& progress);
    /// The timeline rows, plot series and line costs of the run `finished` delivered last, built on the worker
    /// (empty once taken).
    [[nodiscard]] RunDisplay takeDisplay() { return std::exchange(m_display, {}); }

signals:
    void stageChanged(const QString& text);
    void finished(std::shared_ptr<const kl::core::RunOutcome> outcome);
    void failed(const QString& message, const QString& file, int line);
    void cancelled();
    /// The findings of the run `finished` delivered last (after it, same generation).
    void findingsReady(std::shared_ptr<const kl::app::RunFindings> findings);

private:
    void deliver(quint64 generation, kl::Expected<std::shared_ptr<const core::RunOutcome>> outcome, RunDisplay display);
    void report(const core::RunProgress& progress);

    JobGeneration m_jobs; ///< workers poll it to cancel; answers of older generations are dropped
    bool m_running = false;
    core::RunProgress m_progress;                ///< the last report of the current run
    std::optional<core::RunStage> m_markedStage; ///< the last stage the timing log marked in the current run
    bool m_stagesMarkedByHeadStart = false;      ///< the current run is an adopted head start, which marks them
    std::shared_ptr<RunHeadStart> m_headStart;   ///< offered, not adopted yet
    RunDisplay m_display;
    QElapsedTimer m_clock; ///< since start()
    QTimer m_tick;         ///< re-sends the status line while running
};

} // namespace kl::app
