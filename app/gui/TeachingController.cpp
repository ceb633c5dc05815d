#include "gui/TeachingController.h"

#include "compare/CompareView.h"
#include "compare/RunComparison.h"
#include "hw/HardwareChoice.h"
#include "lesson/LessonLoader.h"
#include "lesson/LessonPanel.h"
#include "lesson/LessonText.h"
#include "support/ResourcePaths.h"
#include "support/Try.h"
#include "task/TaskSpec.h"
#include "whatif/WhatIfPanel.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace kl::app {

namespace {

QString keyOf(const QString& folder, const QString& hardware) {
    return QDir::cleanPath(folder) + QLatin1Char('|') + hardware;
}

/// The task's title from its task.json; a review's tasks run from temporary folders whose names mean nothing.
QString taskName(const QString& folder) {
    if (auto spec = core::loadTaskSpec(folder.toStdString()); spec && !spec->title.empty()) {
        return QString::fromStdString(spec->title);
    }
    return QFileInfo(QDir::cleanPath(folder)).fileName();
}

QString exampleFolder(const std::string& task) {
    return QString::fromStdString((core::examplesDir() / task).string());
}

QString errorText(const Error& error) {
    return QString::fromStdString(formatError(error));
}

} // namespace

TeachingController::TeachingController(QObject* parent)
    : QObject(parent), m_provider([](const core::RunRequest& r) { return core::traceAndSimulate(r); }) {
    buildWidgets();
}

TeachingController::~TeachingController() {
    if (!m_compareDock) {
        // Never attached: the widgets have no parent to delete them.
        delete m_compare;
        delete m_whatIf;
        delete m_lessons;
    }
}

void TeachingController::buildWidgets() {
    m_compare = new views::CompareView;
    m_whatIf = new views::WhatIfPanel;
    m_lessons = new views::LessonPanel;
    connect(m_whatIf, &views::WhatIfPanel::overridesChanged, this, &TeachingController::runWhatIf);
    connect(m_whatIf, &views::WhatIfPanel::saveRequested, this, &TeachingController::saveProfile);
    connect(m_lessons, &views::LessonPanel::stepChanged, this, &TeachingController::showLessonStep);
    connect(m_lessons, &views::LessonPanel::taskRequested, this, [this](const QString& task, const QString& hardware) {
        emit taskRequested(exampleFolder(task.toStdString()), hardware);
    });
    loadLessons();
}

void TeachingController::loadLessons() {
    const core::LessonLoader loader(core::examplesDir());
    std::vector<Error> errors;
    auto lessons = loader.loadFolder(core::lessonsDir(), &errors);
    QStringList problems;
    for (const Error& e : errors) {
        problems << errorText(e);
    }
    // Setting lessons enters the first step; do that only once a dock shows the panel (see attach()).
    m_lessons->setLessonProblems(problems);
    m_lessons->setLessons(std::move(lessons));
}

void TeachingController::attach(QMainWindow* window, QMenu* menu) {
    m_window = window;
    auto dock = [&](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, window);
        d->setObjectName(name);
        d->setWidget(widget);
        window->addDockWidget(area, d);
        d->hide();
        return d;
    };
    m_lessonDock = dock(tr("Lessons"), QStringLiteral("lessonDock"), m_lessons, Qt::LeftDockWidgetArea);
    m_whatIfDock = dock(tr("What-if Hardware"), QStringLiteral("whatIfDock"), m_whatIf, Qt::RightDockWidgetArea);
    m_compareDock = dock(tr("Compare Runs"), QStringLiteral("compareDock"), m_compare, Qt::BottomDockWidgetArea);
    // Empty, the dock is a few lines high, leaving the timeline its room; when runs arrive it gets room for two
    // timelines and the sources. Queued: a dock that was just shown is laid out after this event.
    const auto fitCompareDock = [this] {
        QTimer::singleShot(0, this, [this] {
            if (!m_window || !m_compareDock->isVisible() || m_compareDock->isFloating()) {
                return;
            }
            const int wanted =
                m_compare->isShowingRuns() ? m_window->height() * 45 / 100 : m_compareDock->sizeHint().height();
            if (m_compare->isShowingRuns() ? m_compareDock->height() < wanted : m_compareDock->height() > wanted) {
                m_window->resizeDocks({m_compareDock}, {wanted}, Qt::Vertical);
            }
        });
    };
    connect(m_compare, &views::CompareView::runsShown, this, fitCompareDock);
    connect(m_compareDock, &QDockWidget::visibilityChanged, this, [fitCompareDock](bool visible) {
        if (visible) {
            fitCompareDock();
        }
    });

    QAction* lessons = m_lessonDock->toggleViewAction();
    lessons->setText(tr("&Lessons"));
    lessons->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+L")));
    menu->addAction(lessons);
    QAction* whatIf = m_whatIfDock->toggleViewAction();
    whatIf->setText(tr("&What-if Hardware"));
    whatIf->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+W")));
    menu->addAction(whatIf);
    QAction* compare = m_compareDock->toggleViewAction();
    compare->setText(tr("Compare &View"));
    menu->addAction(compare);
    menu->addSeparator();
    menu->addAction(tr("&Compare With Another Run..."), this, &TeachingController::chooseComparison)
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+K")));
    menu->addAction(tr("Compare on the &Other Hardware"), this, [this] {
        if (m_base) {
            compareWith(m_baseFolder,
                        m_baseHardware == QLatin1String("trn2") ? QStringLiteral("trn1") : QStringLiteral("trn2"));
        } else {
            emit statusMessage(tr("Run a kernel first: the comparison starts from the run on screen."));
        }
    });
    // A lesson starts when its dock is first shown, so opening the window does not trace anything.
    connect(m_lessonDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_lessons->step()) {
            if (m_lessons->isOnScreen()) {
                showLessonStep(m_lessons->currentLesson(), m_lessons->currentStep());
            } else {
                m_lessons->showAgain(); // opening the lessons brings their step back over another comparison
            }
        }
    });
}

void TeachingController::setBaseRun(std::shared_ptr<const core::RunOutcome> outcome, QString taskFolder,
                                    QString hardware) {
    if (!outcome || !outcome->result) {
        return;
    }
    m_base = std::move(outcome);
    emit whatIfRunChanged(nullptr, QString());
    m_baseFolder = std::move(taskFolder);
    m_baseHardware = std::move(hardware);
    m_cache.insert(keyOf(m_baseFolder, m_baseHardware), m_base);
    m_whatIfJobs.begin(); // a what-if answer for the previous base is stale
    auto profile = core::loadBaseProfile(m_baseHardware.toStdString());
    if (!profile) {
        m_baseProfile.reset();
        m_whatIf->showError(errorText(profile.error()));
        return;
    }
    m_baseProfile = std::move(*profile);
    m_whatIf->setBase(m_baseProfile->profile, m_base->result,
                      tr("%1 on %2").arg(taskName(m_baseFolder), m_baseHardware));
}

void TeachingController::fetchRun(const QString& taskFolder, const QString& hardware, RunCallback done) {
    const QString key = keyOf(taskFolder, hardware);
    if (auto it = m_cache.find(key); it != m_cache.end()) {
        done(*it, {});
        return;
    }
    auto& waiting = m_pending[key];
    waiting.push_back(std::move(done));
    if (waiting.size() > 1) {
        return; // already on its way
    }
    // The same task already traced for another profile: re-simulate its IR instead of tracing again.
    std::shared_ptr<const sim::KernelIr> ir;
    const QString prefix = QDir::cleanPath(taskFolder) + QLatin1Char('|');
    for (auto it = m_cache.begin(); it != m_cache.end(); ++it) {
        if (it.key().startsWith(prefix) && it.value()->ir) {
            ir = it.value()->ir;
            break;
        }
    }
    std::function<Expected<core::RunOutcome>()> work;
    const std::string hw = hardware.toStdString();
    if (ir) {
        work = [ir, hw]() -> Expected<core::RunOutcome> {
            auto result = core::simulate(*ir, hw);
            KL_TRY(result);
            return core::RunOutcome{ir, *result, {}, {hw, sim::HardwareReason::Requested}};
        };
    } else {
        core::RunRequest request;
        request.trace.taskDir = taskFolder.toStdString();
        request.hardware = hw;
        work = [provider = m_provider, request] { return provider(request); };
    }
    emit statusMessage(tr("Running %1 on %2 for the teaching views...").arg(taskName(taskFolder), hardware));
    runOnWorker<Expected<core::RunOutcome>>(this, std::move(work), [this, key](Expected<core::RunOutcome> outcome) {
        std::shared_ptr<const core::RunOutcome> run;
        QString error;
        if (outcome) {
            run = std::make_shared<const core::RunOutcome>(std::move(*outcome));
            m_cache.insert(key, run);
        } else {
            error = errorText(outcome.error());
        }
        const auto callbacks = m_pending.take(key);
        for (const auto& callback : callbacks) {
            callback(run, error);
        }
    });
}

views::CompareSide TeachingController::side(const std::shared_ptr<const core::RunOutcome>& run, const QString& folder,
                                            const QString& label) const {
    views::CompareSide s;
    s.result = run->result;
    s.label = label;
    if (auto spec = core::loadTaskSpec(folder.toStdString())) {
        s.sourceName = QString::fromStdString(spec->kernelFile.filename().string());
        if (auto text = core::readTextFile(spec->kernelFile)) {
            s.sourceText = QString::fromStdString(*text);
        }
    }
    return s;
}

void TeachingController::showCompareDock() {
    if (m_compareDock && !m_compareDock->isVisible()) {
        m_compareDock->show();
        m_compareDock->raise();
    }
}

void TeachingController::compareWith(const QString& taskFolder, const QString& hardware) {
    if (!m_base) {
        emit statusMessage(tr("Run a kernel first: the comparison starts from the run on screen."));
        return;
    }
    comparePair(m_baseFolder, m_baseHardware, taskFolder, hardware);
}

void TeachingController::comparePair(const QString& folderA, const QString& hardwareA, const QString& folderB,
                                     const QString& hardwareB) {
    const quint64 generation = m_compareJobs.begin();
    // The compare view leaves the lesson's step: a step run still on its way must not replace this comparison,
    // and the lesson's figures no longer describe what is on screen.
    m_stepJobs.invalidate();
    m_lessons->leaveScreen(tr("The compare view now shows another comparison, so this step's figures are "
                              "cleared."));
    m_compare->clear(
        tr("Running %1 on %2 and %3 on %4...").arg(taskName(folderA), hardwareA, taskName(folderB), hardwareB));
    showCompareDock();
    fetchRun(folderA, hardwareA, [=, this](std::shared_ptr<const core::RunOutcome> a, const QString& errorA) {
        if (!m_compareJobs.isCurrent(generation)) {
            return;
        }
        if (!a) {
            m_compare->clear(errorA);
            return;
        }
        fetchRun(folderB, hardwareB, [=, this](std::shared_ptr<const core::RunOutcome> b, const QString& errorB) {
            if (!m_compareJobs.isCurrent(generation)) {
                return;
            }
            if (!b) {
                m_compare->clear(errorB);
                return;
            }
            m_compare->setRuns(side(a, folderA, tr("%1 on %2").arg(taskName(folderA), hardwareA)),
                               side(b, folderB, tr("%1 on %2").arg(taskName(folderB), hardwareB)));
            emit statusMessage(
                tr("Comparing %1 on %2 with %3 on %4").arg(taskName(folderA), hardwareA, taskName(folderB), hardwareB));
        });
    });
}

void TeachingController::chooseComparison() {
    if (!m_base) {
        emit statusMessage(tr("Run a kernel first: the comparison starts from the run on screen."));
        return;
    }
    QStringList tasks = QDir(QString::fromStdString(core::examplesDir().string()))
                            .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    tasks.prepend(tr("(this task: %1)").arg(taskName(m_baseFolder)));
    bool ok = false;
    const QString task =
        QInputDialog::getItem(m_window, tr("Compare With"), tr("Example task for B:"), tasks, 0, false, &ok);
    if (!ok) {
        return;
    }
    QStringList profiles;
    for (std::string_view name : sim::kBundledProfiles) {
        profiles << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    const QString hardware =
        QInputDialog::getItem(m_window, tr("Compare With"), tr("Hardware for B:"), profiles,
                              std::max<qsizetype>(0, profiles.indexOf(m_baseHardware)), false, &ok);
    if (!ok) {
        return;
    }
    compareWith(task == tasks.front() ? m_baseFolder : exampleFolder(task.toStdString()), hardware);
}

void TeachingController::showLessonStep(int lesson, int step) {
    const core::LessonStep* current = m_lessons->step();
    if (!current || m_lessons->currentLesson() != lesson || m_lessons->currentStep() != step) {
        return;
    }
    if (!m_lessonDock || !m_lessonDock->isVisible()) {
        return; // shown when the dock opens
    }
    const core::LessonStep s = *current;
    const quint64 generation = m_stepJobs.begin();
    m_compareJobs.invalidate(); // a comparison the user asked for earlier and still on its way is dropped
    const QString folder = exampleFolder(s.task);
    const QString hardware = QString::fromStdString(s.hardware);
    m_lessons->setStatus(tr("Running %1 on %2...").arg(QString::fromStdString(s.task), hardware));
    showCompareDock();
    fetchRun(folder, hardware, [=, this](std::shared_ptr<const core::RunOutcome> a, const QString& error) {
        if (!m_stepJobs.isCurrent(generation)) {
            return;
        }
        if (!a) {
            m_lessons->setStatus(error);
            return;
        }
        if (s.compare) {
            const QString cf = exampleFolder(s.compare->task);
            const QString ch = QString::fromStdString(s.compare->hardware);
            m_lessons->setStatus(tr("Running %1 on %2...").arg(QString::fromStdString(s.compare->task), ch));
            fetchRun(cf, ch, [=, this](std::shared_ptr<const core::RunOutcome> b, const QString& errorB) {
                if (!m_stepJobs.isCurrent(generation)) {
                    return;
                }
                if (!b) {
                    m_lessons->setStatus(errorB);
                    return;
                }
                showStepRuns(generation, a, b, tr("%1 on %2").arg(taskName(cf), ch));
            });
        } else if (!s.whatIf.empty()) {
            auto base = core::loadBaseProfile(s.hardware);
            if (!base) {
                m_lessons->setStatus(errorText(base.error()));
                return;
            }
            const std::string label = core::describeOverrides(base->profile, s.whatIf);
            runOnWorker<Expected<std::shared_ptr<const sim::SimResult>>>(
                this,
                [ir = a->ir, profile = base->profile, overrides = s.whatIf] {
                    return core::simulateWhatIf(*ir, profile, overrides);
                },
                [=, this](Expected<std::shared_ptr<const sim::SimResult>> result) {
                    if (!result) {
                        m_lessons->setStatus(errorText(result.error()));
                        return;
                    }
                    auto b = std::make_shared<const core::RunOutcome>(core::RunOutcome{a->ir, *result, {}});
                    showStepRuns(generation, a, b,
                                 tr("%1 what-if: %2").arg(taskName(folder), QString::fromStdString(label)));
                });
        } else {
            showStepRuns(generation, a, nullptr, {});
        }
    });
}

void TeachingController::showStepRuns(quint64 generation, std::shared_ptr<const core::RunOutcome> a,
                                      std::shared_ptr<const core::RunOutcome> b, const QString& labelB) {
    const core::LessonStep* s = m_lessons->step();
    if (!m_stepJobs.isCurrent(generation) || !s) {
        return;
    }
    const QString folder = exampleFolder(s->task);
    const QString labelA = tr("%1 on %2").arg(taskName(folder), QString::fromStdString(s->hardware));
    if (b) {
        const QString folderB = s->compare ? exampleFolder(s->compare->task) : folder;
        m_compare->setRuns(side(a, folder, labelA), side(b, folderB, labelB));
        m_lessons->setNumbers(core::lessonNumbers(core::RunComparison(*a->result, *b->result, {}, {})));
    } else {
        QString cudaName;
        QString cudaText;
        if (auto spec = core::loadTaskSpec(folder.toStdString()); spec && !spec->cudaFile.empty()) {
            cudaName = QString::fromStdString(spec->cudaFile.filename().string());
            cudaText = QString::fromStdString(core::readTextFile(spec->cudaFile).value_or(std::string{}));
        }
        m_compare->setSingleRun(side(a, folder, labelA), cudaName, cudaText);
        m_lessons->setNumbers(core::lessonNumbers(*a->result));
    }
    sim::TimePs t0 = 0;
    sim::TimePs t1 = m_compare->commonEnd();
    if (s->timeRange) {
        const double total = static_cast<double>(a->result->summary.totalPs);
        const bool fraction = s->timeRange->unit == core::LessonTimeRange::Unit::Fraction;
        t0 = static_cast<sim::TimePs>(fraction ? s->timeRange->from * total : s->timeRange->from * 1e6);
        t1 = static_cast<sim::TimePs>(fraction ? s->timeRange->to * total : s->timeRange->to * 1e6);
        m_compare->setTimeRange(t0, t1);
    }
    m_compare->highlightNkiLines(s->nkiLines.first, s->nkiLines.last);
    m_compare->highlightCudaLines(s->cudaLines.first, s->cudaLines.last);
    m_compare->setNote(QString::fromStdString(s->annotation), t0, t1);
    m_lessons->setStatus(QString());
    emit lessonStepShown(m_lessons->currentLesson(), m_lessons->currentStep());
}

void TeachingController::runWhatIf(const core::ProfileOverrides& overrides) {
    if (overrides.empty()) {
        m_whatIfJobs.invalidate(); // a run still on its way is for values no longer set
        emit whatIfRunChanged(nullptr, QString());
    }
    if (!m_base || !m_base->ir || !m_baseProfile || overrides.empty()) {
        return;
    }
    const quint64 generation = m_whatIfJobs.begin();
    m_whatIf->showBusy();
    using Timed = std::pair<Expected<std::shared_ptr<const sim::SimResult>>, double>;
    runOnWorker<Timed>(
        this,
        [ir = m_base->ir, profile = m_baseProfile->profile, overrides] {
            const auto start = std::chrono::steady_clock::now();
            auto result = core::simulateWhatIf(*ir, profile, overrides);
            const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
            return Timed{std::move(result), took.count()};
        },
        [this, generation, overrides](Timed timed) {
            if (!m_whatIfJobs.isCurrent(generation)) {
                return; // the settings changed again meanwhile
            }
            if (!timed.first) {
                m_whatIf->showError(errorText(timed.first.error()));
                return;
            }
            m_whatIf->showResult(*timed.first, timed.second);
            emit whatIfRunChanged(
                *timed.first,
                tr("What-if: %1 on %2 with %3")
                    .arg(taskName(m_baseFolder), m_baseHardware,
                         QString::fromStdString(core::describeOverrides(m_baseProfile->profile, overrides))));
            emit whatIfShown();
        });
}

void TeachingController::saveProfile(const core::ProfileOverrides& overrides) {
    if (!m_baseProfile) {
        return;
    }
    const QString suggested = QDir::home().filePath(QStringLiteral("%1-whatif.json").arg(m_baseHardware));
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save as Hardware Profile"), suggested,
                                                      tr("Hardware profile (*.json)"));
    if (path.isEmpty()) {
        return;
    }
    auto text =
        core::writeWhatIfProfile(m_baseProfile->json, overrides, QFileInfo(path).completeBaseName().toStdString());
    if (!text) {
        m_whatIf->showError(errorText(text.error()));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(text->data(), static_cast<qint64>(text->size())) < 0) {
        m_whatIf->showError(tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    emit statusMessage(tr("Saved the what-if profile to %1 (open it with Run > Hardware or --hw %1)").arg(path));
}

} // namespace kl::app
