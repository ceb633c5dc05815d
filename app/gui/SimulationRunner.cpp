#include "gui/SimulationRunner.h"

#include "gui/TimingLog.h"

#include <QLocale>
#include <QPointer>
#include <QThread>

namespace kl::app {

namespace {

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

QString megabytes(std::uint64_t bytes) {
    return QString::number(static_cast<double>(bytes) / 1e6, 'f', 1);
}

} // namespace

QString SimulationRunner::progressText(const core::RunProgress& p) {
    const QString elapsed = QString::number(p.elapsedSeconds, 'f', 1);
    switch (p.stage) {
    case core::RunStage::Tracing: return QObject::tr("Tracing the kernel in the NKI front end... %1 s").arg(elapsed);
    case core::RunStage::LoadingIr:
        return QObject::tr("Reading the Kernel IR: %1 MB traced... %2 s").arg(megabytes(p.irBytes), elapsed);
    case core::RunStage::Simulating:
        return QObject::tr("Simulating %1 instructions (%2 MB of IR read)... %3 s")
            .arg(count(p.instructionsTraced), megabytes(p.irBytes), elapsed);
    case core::RunStage::Done:
        return QObject::tr("Done: %1 instructions simulated in %2 s").arg(count(p.instructionsSimulated), elapsed);
    }
    return {};
}

void SimulationRunner::report(const core::RunProgress& progress) {
    if (progress.stage != m_markedStage && !m_stagesMarkedByHeadStart) {
        m_markedStage = progress.stage;
        TimingLog::mark(stageMark(progress.stage)); // where the open path's time goes
    }
    m_progress = progress;
    emit stageChanged(progressText(progress));
}

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const kl::core::RunOutcome>>();
    qRegisterMetaType<std::shared_ptr<const kl::app::RunFindings>>();
    m_tick.setInterval(250);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        if (!m_running) {
            m_tick.stop();
            return;
        }
        // The worker's figures stay; only the elapsed time moves.
        core::RunProgress p = m_progress;
        p.elapsedSeconds = static_cast<double>(m_clock.elapsed()) / 1000.0;
        emit stageChanged(progressText(p));
    });
}

SimulationRunner::~SimulationRunner() {
    // Workers poll the generation and hold a QPointer: they stop or drop their result once we are gone.
    m_jobs.invalidate();
}

void SimulationRunner::start(const core::RunRequest& request) {
    const quint64 generation = m_jobs.begin();
    m_running = true;
    m_progress = {};
    m_markedStage.reset();
    std::shared_ptr<RunHeadStart> headStart = std::exchange(m_headStart, nullptr);
    if (headStart && headStart->request() != request) {
        headStart->cancel();
        headStart.reset();
    } else if (headStart) {
        headStart->adopt();
    }
    m_stagesMarkedByHeadStart = headStart != nullptr;
    m_clock.start();
    m_tick.start();
    QPointer<SimulationRunner> self(this);
    QThread* worker = QThread::create([self, wanted = m_jobs.stillWanted(generation), generation, request, headStart] {
        std::function<bool()> shouldCancel = [wanted] { return !wanted(); };
        std::function<void(const core::RunProgress&)> onProgress = [self, generation](const core::RunProgress& p) {
            postTo(self, [self, generation, p] {
                if (self->m_jobs.isCurrent(generation)) {
                    self->report(p);
                }
            });
        };
        RunJobResult job =
            headStart ? headStart->join(shouldCancel, onProgress) : runJob(request, shouldCancel, onProgress);
        const auto outcome = job.outcome;
        postTo(self, [self, generation, job = std::move(job)]() mutable {
            self->deliver(generation, std::move(job.outcome), std::move(job.display));
        });
        if (!outcome || shouldCancel()) {
            return;
        }
        auto findings = analyseRun(**outcome, request.trace.taskDir);
        postTo(self, [self, generation, findings] {
            if (self->m_jobs.isCurrent(generation)) {
                emit self->findingsReady(findings);
            }
        });
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

void SimulationRunner::offerHeadStart(std::shared_ptr<RunHeadStart> headStart) {
    if (m_headStart) {
        m_headStart->cancel();
    }
    m_headStart = std::move(headStart);
}

void SimulationRunner::cancel() {
    if (!m_running) {
        return;
    }
    m_running = false;
    m_tick.stop();
    m_jobs.invalidate(); // whatever is in flight is now stale
    emit cancelled();
}

void SimulationRunner::deliver(quint64 generation, kl::Expected<std::shared_ptr<const core::RunOutcome>> outcome,
                               RunDisplay display) {
    if (!m_jobs.isCurrent(generation)) {
        return; // a newer run started, or this one was cancelled
    }
    m_running = false;
    m_tick.stop();
    if (!outcome) {
        const auto& e = outcome.error();
        if (e.code == ErrorCode::Cancelled) {
            emit cancelled();
            return;
        }
        QString message = QString::fromStdString(e.message);
        if (!e.hint.empty()) {
            message += QStringLiteral(" (") + QString::fromStdString(e.hint) + QLatin1Char(')');
        }
        emit failed(message, QString::fromStdString(e.file), e.line);
        return;
    }
    m_display = std::move(display);
    emit finished(*outcome);
}

} // namespace kl::app
