#include "gui/SimulationRunner.h"

#include <QMetaObject>
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

SimulationRunner::SimulationRunner(QObject* parent)
    : QObject(parent), m_live(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<std::shared_ptr<const kl::core::RunOutcome>>();
    qRegisterMetaType<std::shared_ptr<const kl::app::RunFindings>>();
}

SimulationRunner::~SimulationRunner() {
    // Workers hold m_live and a QPointer: they stop or drop their result once we are gone.
    m_live->store(0);
}

void SimulationRunner::start(const core::RunRequest& request) {
    const quint64 generation = ++m_generation;
    m_live->store(generation);
    m_running = true;
    QPointer<SimulationRunner> self(this);
    auto live = m_live;
    QThread* worker = QThread::create([self, live, generation, request] {
        auto shouldCancel = [&] { return live->load() != generation; };
        auto onStage = [&](core::RunStage stage) {
            QMetaObject::invokeMethod(
                self,
                [self, generation, stage] {
                    if (self && self->m_generation == generation) {
                        emit self->stageChanged(stageText(stage));
                    }
                },
                Qt::QueuedConnection);
        };
        auto traced = core::traceAndSimulate(request, shouldCancel, onStage);
        kl::Expected<std::shared_ptr<const core::RunOutcome>> outcome =
            traced ? kl::Expected<std::shared_ptr<const core::RunOutcome>>(
                         std::make_shared<const core::RunOutcome>(std::move(*traced)))
                   : std::unexpected(traced.error());
        QMetaObject::invokeMethod(
            self,
            [self, generation, outcome]() mutable {
                if (self) {
                    self->deliver(generation, std::move(outcome));
                }
            },
            Qt::QueuedConnection);
        if (!outcome || shouldCancel()) {
            return;
        }
        auto findings = analyseRun(**outcome, request.trace.taskDir);
        QMetaObject::invokeMethod(
            self,
            [self, generation, findings] {
                if (self && self->m_generation == generation) {
                    emit self->findingsReady(findings);
                }
            },
            Qt::QueuedConnection);
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

void SimulationRunner::cancel() {
    if (!m_running) {
        return;
    }
    m_live->store(0);
    m_running = false;
    ++m_generation; // whatever is in flight is now stale
    emit cancelled();
}

void SimulationRunner::deliver(quint64 generation, kl::Expected<std::shared_ptr<const core::RunOutcome>> outcome) {
    if (generation != m_generation) {
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
