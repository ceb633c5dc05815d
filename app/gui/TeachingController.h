#pragma once

#include "gui/JobGeneration.h"
#include "run/RunPipeline.h"
#include "whatif/WhatIfRun.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace kl::views {
class CompareView;
class LessonPanel;
class WhatIfPanel;
struct CompareSide;
} // namespace kl::views

namespace kl::app {

/// Owns the teaching docks (compare view, what-if panel, lesson panel) and wires them to runs.
///
/// Runs come from a provider (by default core::traceAndSimulate) on worker threads, cached by task folder and
/// hardware; the same task on another profile re-simulates the cached IR instead of tracing again. A what-if
/// change re-simulates the base run's IR with the changed profile (core::simulateWhatIf) on a worker. Every
/// asynchronous answer carries a generation number: a lesson step or what-if setting that was left before
/// its runs arrived is dropped, never shown.
///
/// The main window calls attach() once and setBaseRun() for every run it shows; it never needs to know the
/// docks.
class TeachingController : public QObject {
    Q_OBJECT
public:
    using RunProvider = std::function<Expected<core::RunOutcome>(const core::RunRequest&)>;
    using RunCallback = std::function<void(std::shared_ptr<const core::RunOutcome>, const QString& error)>;

    explicit TeachingController(QObject* parent = nullptr);
    ~TeachingController() override;

    /// Adds the docks to `window` (hidden until asked for) and the teaching actions to `menu`.
    void attach(QMainWindow* window, QMenu* menu);
    /// The run the main window shows: the what-if base and the A side of "Compare With...".
    void setBaseRun(std::shared_ptr<const core::RunOutcome> outcome, QString taskFolder, QString hardware);
    /// For tests and tools: where runs come from (default: trace + simulate through the front end).
    void setRunProvider(RunProvider provider) { m_provider = std::move(provider); }

    /// Shows the base run against `taskFolder` on `hardware` in the compare view.
    void compareWith(const QString& taskFolder, const QString& hardware);
    /// Runs (or reuses) both and shows them in the compare view.
    void comparePair(const QString& folderA, const QString& hardwareA, const QString& folderB,
                     const QString& hardwareB);
    /// A run of `taskFolder` on `hardware`, from the cache or a worker; `done` is called on the GUI thread.
    void fetchRun(const QString& taskFolder, const QString& hardware, RunCallback done);

    [[nodiscard]] views::CompareView* compareView() const { return m_compare; }
    [[nodiscard]] views::WhatIfPanel* whatIfPanel() const { return m_whatIf; }
    [[nodiscard]] views::LessonPanel* lessonPanel() const { return m_lessons; }
    [[nodiscard]] QDockWidget* compareDock() const { return m_compareDock; }
    [[nodiscard]] QDockWidget* whatIfDock() const { return m_whatIfDock; }
    [[nodiscard]] QDockWidget* lessonDock() const { return m_lessonDock; }

signals:
    /// Something the user should see in the status bar.
    void statusMessage(const QString& text);
    /// A lesson step wants its task open in the main views too (the owner may ignore it).
    void taskRequested(const QString& taskFolder, const QString& hardware);
    /// A lesson step's run arrived and was shown in the compare view.
    void lessonStepShown(int lesson, int step);
    /// A what-if re-simulation finished and its figures are on screen.
    void whatIfShown();
    /// The what-if run to stack under the base run's timeline, titled with the task and the changed fields;
    /// null when there is none any more (values back to the base, or a new base run).
    void whatIfRunChanged(std::shared_ptr<const kl::sim::SimResult> run, const QString& title);

private:
    void buildWidgets();
    void loadLessons();
    void showLessonStep(int lesson, int step);
    void showStepRuns(quint64 generation, std::shared_ptr<const core::RunOutcome> a,
                      std::shared_ptr<const core::RunOutcome> b, const QString& labelB);
    void runWhatIf(const core::ProfileOverrides& overrides);
    void saveProfile(const core::ProfileOverrides& overrides);
    void chooseComparison();
    [[nodiscard]] views::CompareSide side(const std::shared_ptr<const core::RunOutcome>& run, const QString& folder,
                                          const QString& label) const;
    void showCompareDock();

    RunProvider m_provider;
    QHash<QString, std::shared_ptr<const core::RunOutcome>> m_cache;
    QHash<QString, std::vector<RunCallback>> m_pending;
    std::shared_ptr<const core::RunOutcome> m_base;
    QString m_baseFolder;
    QString m_baseHardware;
    std::optional<core::BaseProfile> m_baseProfile;
    JobGeneration m_whatIfJobs; ///< one generation per kind of answer: each is dropped when superseded
    JobGeneration m_stepJobs;
    JobGeneration m_compareJobs;

    QPointer<QMainWindow> m_window;
    views::CompareView* m_compare = nullptr;
    views::WhatIfPanel* m_whatIf = nullptr;
    views::LessonPanel* m_lessons = nullptr;
    QDockWidget* m_compareDock = nullptr;
    QDockWidget* m_whatIfDock = nullptr;
    QDockWidget* m_lessonDock = nullptr;
};

} // namespace kl::app
