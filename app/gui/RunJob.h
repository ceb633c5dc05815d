#pragma once

#include "gui/RunDisplay.h"
#include "run/RunPipeline.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace kl::app {

/// The run the window starts for what is open: a task folder (its task.json knows the arguments) or a kernel file
/// with the tensor arguments the user gave, on the chosen hardware and LNC degree (empty: automatic). One place, so
/// that a run begun before the window (RunHeadStart) is recognised as the one the window asks for.
[[nodiscard]] core::RunRequest runRequestFor(const QString& target, const QStringList& kernelArgs,
                                             const QString& hardware = {}, const QString& lnc = {});

/// The timing log's line for the start of a run's stage ("tracing started", ...).
[[nodiscard]] const char* stageMark(core::RunStage stage);

/// A finished run as the GUI takes it: the outcome, and the views' data built beside it on the worker.
struct RunJobResult {
    Expected<std::shared_ptr<const core::RunOutcome>> outcome = std::unexpected(Error{ErrorCode::Cancelled, ""});
    RunDisplay display;
};

/// Trace, load, simulate, then build the views' data (RunDisplay): the work of one GUI run, on a worker thread.
[[nodiscard]] RunJobResult runJob(const core::RunRequest& request, const std::function<bool()>& shouldCancel,
                                  const std::function<void(const core::RunProgress&)>& onProgress);

} // namespace kl::app
