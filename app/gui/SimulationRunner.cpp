#include "gui/SimulationRunner.h"

#include <QPointer>
#include <QThread>

namespace kl::app {

namespace {

QString stageText(core::RunStage stage) {
    switch (stage) {
    case core::RunStage::Tracing: return QObject::tr("Tracing the kernel in the NKI front end...");
    case core::RunStage::LoadingIr: return QObject::tr("Reading the Kernel IR...");
    case core::RunStage::Simulating: return QObject::tr("Simulating on the NeuronCore model...");
    case core::RunStage::Done: return QObject::tr("Done");
    }
    return {};
}

} // namespace

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const kl::core::RunOutcome>>();
    qRegisterMetaType<std::shared_ptr<const kl::app::RunFindings>>();
}

SimulationRunner::~SimulationRunner() {
    // Workers poll the generation and hold a QPointer: they stop or drop their result once we are gone.
    m_jobs.invalidate();
}

void SimulationRunner::start(const core::RunRequest& request) {
    const quint64 generation = m_jobs.begin();
    m_running = true;
    QPointer<SimulationRunner> self(this);
    QThread* worker = QThread::create([self, wanted = m_jobs.stillWanted(generation), generation, request] {
        auto shouldCancel = [&] { return !wanted(); };
        auto current = [self, generation] { return self->m_jobs.isCurrent(generation); };
        auto onStage = [&](core::RunStage stage) {
            postTo(self, [self, current, stage] {
                if (current()) {
                    emit self->stageChanged(stageText(stage));
                }
            });
        };
        auto traced = core::traceAndSimulate(request, shouldCancel, onStage);
        kl::Expected<std::shared_ptr<const core::RunOutcome>> outcome =
            traced ? kl::Expected<std::shared_ptr<const core::RunOutcome>>(
                         std::make_shared<const core::RunOutcome>(std::move(*traced)))
                   : std::unexpected(traced.error());
        postTo(self, [self, generation, outcome]() mutable { self->deliver(generation, std::move(outcome)); });
        if (!outcome || shouldCancel()) {
            return;
        }
        auto findings = analyseRun(**outcome, request.trace.taskDir);
        postTo(self, [self, current, findings] {
            if (current()) {
                emit self->findingsReady(findings);
            }
        });
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

void SimulationRunner::cancel() {
    if (!m_running) {
        return;
    }
    m_running = false;
    m_jobs.invalidate(); // whatever is in flight is now stale
    emit cancelled();
}

void SimulationRunner::deliver(quint64 generation, kl::Expected<std::shared_ptr<const core::RunOutcome>> outcome) {
    if (!m_jobs.isCurrent(generation)) {
        return; // a newer run started, or this one was cancelled
    }
    m_running = false;
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
    emit finished(*outcome);
}

} // namespace kl::app
