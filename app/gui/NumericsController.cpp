#include "gui/NumericsController.h"

#include "gui/ReviewSession.h"
#include "gui/SourceLinkController.h"
#include "numerics/NumericsLink.h"
#include "numerics/NumericsPane.h"
#include "numerics/NumericsReader.h"
#include "numerics/NumericsSettingsDialog.h"
#include "review/ReviewFile.h"
#include "run/RunPipeline.h"
#include "support/Subprocess.h"
#include "support/Try.h"
#include "task/TaskSpec.h"
#include "timeline/TimelineView.h"
#include "trace/TraceRunner.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QThread>

namespace kl::app {

/// What a worker hands back: the document and its reading, or the error.
struct NumericsController::Delivery {
    kl::Expected<std::pair<std::string, std::shared_ptr<const core::NumericsResult>>> outcome;
};

namespace {

using Delivered = std::pair<std::string, std::shared_ptr<const core::NumericsResult>>;

/// Blocking: the front end in value mode, then the document read. Runs on the worker.
kl::Expected<Delivered> runOnValues(const core::TraceRequest& request, const std::function<bool()>& shouldCancel) {
    core::TemporaryDirectory scratch;
    if (!scratch.valid()) {
        return kl::makeError(kl::ErrorCode::Io, "cannot create a temporary folder for the numerics document");
    }
    core::TraceRequest run = request;
    run.output = scratch.path() / "numerics.json";
    auto traced = core::runTrace(run, shouldCancel);
    KL_TRY(traced);
    auto text = core::readTextFile(traced->irFile);
    KL_TRY(text);
    auto parsed = core::parseNumericsDocument(*text, "the front end's numerics output");
    KL_TRY(parsed);
    return Delivered{std::move(*text), std::make_shared<const core::NumericsResult>(std::move(*parsed))};
}

QString storedLabel(const core::NumericsRun& run) {
    return QObject::tr("Stored run %1 (%2): %3")
        .arg(run.id)
        .arg(QString::fromStdString(run.createdAt), run.passed ? QObject::tr("pass") : QObject::tr("FAIL"));
}

} // namespace

NumericsController::NumericsController(ReviewSession* session, SourceLinkController* sourceLinks, TrustGate* gate,
                                       Panes panes, QObject* parent)
    : QObject(parent), m_session(session), m_sourceLinks(sourceLinks), m_gate(gate), m_panes(panes),
      m_live(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<std::shared_ptr<const kl::core::NumericsResult>>();
    connect(m_panes.pane, &views::NumericsPane::instructionActivated, this, &NumericsController::goToInstruction);
    connect(m_panes.pane, &views::NumericsPane::cancelRequested, this, &NumericsController::cancel);
}

NumericsController::~NumericsController() {
    m_live->store(0); // workers drop their result once we are gone
}

void NumericsController::setTarget(const TrustGate::Target& target, bool partOfReview) {
    const bool changed = target.path != m_target.path || partOfReview != m_partOfReview;
    m_target = target;
    m_partOfReview = partOfReview;
    if (!changed) {
        return;
    }
    if (m_running) {
        cancel();
    }
    showRuns(nullptr, 0);
}

void NumericsController::setTimedRun(std::shared_ptr<const core::RunOutcome> run) {
    m_timedRun = std::move(run);
}

void NumericsController::runWithDialog() {
    if (m_target.path.isEmpty()) {
        emit statusMessage(tr("Open a task folder or a kernel first (Ctrl+O)."));
        return;
    }
    views::NumericsSettingsDialog dialog(m_panes.window);
    dialog.setOptions(m_lastOptions);
    if (dialog.exec() == QDialog::Accepted) {
        m_lastOptions = dialog.options();
        run(m_lastOptions);
    }
}

bool NumericsController::run(const core::NumericsOptions& options) {
    if (m_target.path.isEmpty()) {
        return false;
    }
    if (!m_gate->mayRun(m_target)) {
        m_panes.pane->setMessage(m_gate->isWaiting()
                                     ? tr("Not run: the kernel is not trusted yet. Trust it in the timeline area, "
                                          "then Run > Numerics again.")
                                     : tr("Not run: see Problems."));
        emit trustNeeded();
        return false;
    }
    core::TraceRequest request;
    if (QFileInfo(m_target.path).isDir()) {
        request.taskDir = m_target.path.toStdString();
    } else {
        request.kernelFile = m_target.path.toStdString();
        for (const QString& arg : m_target.kernelArgs) {
            request.argSpecs.push_back(arg.toStdString());
        }
    }
    request.numerics = options;
    request.numerics.enabled = true;
    const quint64 generation = ++m_generation;
    m_live->store(generation);
    setRunning(true);
    QPointer<NumericsController> self(this);
    auto live = m_live;
    QThread* worker = QThread::create([self, live, generation, request] {
        auto shouldCancel = [&] { return live->load() != generation; };
        auto delivery = std::make_shared<Delivery>(Delivery{runOnValues(request, shouldCancel)});
        QMetaObject::invokeMethod(
            self,
            [self, generation, delivery] {
                if (self) {
                    self->deliver(generation, delivery);
                }
            },
            Qt::QueuedConnection);
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
    return true;
}

void NumericsController::cancel() {
    if (!m_running) {
        return;
    }
    m_live->store(0);
    ++m_generation; // whatever is in flight is now stale
    setRunning(false);
    m_panes.pane->setMessage(tr("The numerics run was cancelled."));
}

void NumericsController::setRunning(bool running) {
    m_running = running;
    m_panes.pane->setBusy(running);
    if (running) {
        m_panes.pane->setMessage(tr("Running the kernel on values (Trainium arithmetic, references)..."));
    }
}

void NumericsController::deliver(quint64 generation, std::shared_ptr<Delivery> delivery) {
    if (generation != m_generation) {
        return; // cancelled, a newer run, or another task
    }
    setRunning(false);
    if (!delivery->outcome) {
        const kl::Error& e = delivery->outcome.error();
        if (e.code == kl::ErrorCode::Cancelled) {
            m_panes.pane->setMessage(tr("The numerics run was cancelled."));
            return;
        }
        QString message = tr("Numerics: %1").arg(QString::fromStdString(e.message));
        if (!e.hint.empty()) {
            message += QStringLiteral(" (") + QString::fromStdString(e.hint) + QLatin1Char(')');
        }
        m_panes.pane->setMessage(tr("The numerics run failed: see Problems."));
        emit problem(message, QString::fromStdString(e.file), e.line);
        return;
    }
    auto& [document, result] = *delivery->outcome;
    const std::int64_t stored = m_partOfReview ? m_session->recordNumericsRun(document) : 0;
    showRuns(result, stored);
    emit statusMessage(result->passed()
                           ? tr("Numerics: every comparison within tolerance.")
                           : tr("Numerics: %1 comparison(s) outside tolerance.").arg(result->failedCount()));
    emit finished(result);
}

bool NumericsController::openDocument(const QString& path) {
    auto read = core::readNumericsFile(path.toStdString());
    if (!read) {
        emit problem(QString::fromStdString(read.error().message), QString::fromStdString(read.error().file),
                     read.error().line);
        return false;
    }
    auto result = std::make_shared<const core::NumericsResult>(std::move(*read));
    std::vector<views::NumericsPane::Entry> entries{{QFileInfo(path).fileName(), result}};
    m_panes.pane->setRuns(std::move(entries));
    emit finished(result);
    return true;
}

void NumericsController::showResult(std::shared_ptr<const core::NumericsResult> result) {
    showRuns(std::move(result), 0);
}

void NumericsController::showRuns(std::shared_ptr<const core::NumericsResult> latest, std::int64_t storedId) {
    std::vector<views::NumericsPane::Entry> entries;
    if (latest) {
        entries.push_back({tr("Run just made"), latest});
    }
    core::ReviewFile* file = m_session ? m_session->file() : nullptr;
    if (m_partOfReview && file && m_session->currentTask()) {
        auto runs = file->numericsRuns().list(*m_session->currentTask());
        if (runs) {
            // Newest first; the run just made is stored already, so it is not listed twice.
            for (auto it = runs->rbegin(); it != runs->rend(); ++it) {
                if (it->id == storedId) {
                    continue;
                }
                auto parsed = core::parseNumericsDocument(it->document);
                if (parsed) {
                    entries.push_back(
                        {storedLabel(*it), std::make_shared<const core::NumericsResult>(std::move(*parsed))});
                }
            }
        }
    }
    if (entries.empty()) {
        m_panes.pane->setRuns({});
        m_panes.pane->setMessage(tr("No numerics run yet: Run > Numerics... runs the kernel on real values."));
        return;
    }
    m_panes.pane->setRuns(std::move(entries));
}

void NumericsController::goToInstruction(qint64 index, const QString& file, int line) {
    const auto result = m_panes.pane->result();
    if (result && m_timedRun && m_timedRun->ir && m_timedRun->result) {
        core::NumericsInstruction ins;
        ins.index = index;
        if (const auto irIndex = core::irInstructionOf(*result, ins, *m_timedRun->ir)) {
            const auto& tl = m_timedRun->result->timeline;
            for (std::size_t i = 0; i < tl.size(); ++i) {
                if (tl.irId(i) == *irIndex) {
                    auto* view = m_panes.timeline;
                    view->selectInstruction(static_cast<std::uint32_t>(i));
                    const auto span = view->visibleEnd() - view->visibleStart();
                    const auto centre = (tl.mainStartPs(i) + tl.endPs(i)) / 2;
                    view->setVisibleRange(centre - span / 2, centre + span / 2);
                    if (line > 0) {
                        m_sourceLinks->showProblemLocation(file, line);
                    }
                    emit instructionShown(static_cast<qint64>(i));
                    return;
                }
            }
        }
    }
    if (line > 0) {
        m_sourceLinks->showProblemLocation(file, line);
    }
    emit instructionShown(-1);
}

} // namespace kl::app
