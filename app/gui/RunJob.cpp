#include "gui/RunJob.h"

#include <QFileInfo>

namespace kl::app {

core::RunRequest runRequestFor(const QString& target, const QStringList& kernelArgs, const QString& hardware,
                               const QString& lnc) {
    core::RunRequest request;
    if (QFileInfo(target).isDir()) {
        request.trace.taskDir = target.toStdString();
    } else {
        request.trace.kernelFile = target.toStdString();
        for (const QString& arg : kernelArgs) {
            request.trace.argSpecs.push_back(arg.toStdString());
        }
    }
    request.hardware = hardware.toStdString();
    request.trace.lnc = lnc.toStdString();
    return request;
}

const char* stageMark(core::RunStage stage) {
    static constexpr const char* kMarks[] = {"tracing started", "IR loading started", "simulation started",
                                             "simulation done"};
    return kMarks[static_cast<int>(stage)];
}

RunJobResult runJob(const core::RunRequest& request, const std::function<bool()>& shouldCancel,
                    const std::function<void(const core::RunProgress&)>& onProgress) {
    auto traced = core::traceAndSimulate(request, shouldCancel, {}, onProgress);
    if (!traced) {
        return {std::unexpected(traced.error()), {}};
    }
    auto outcome = std::make_shared<const core::RunOutcome>(std::move(*traced));
    // The timeline's rows, the plots' series and the line costs cost time in proportion to the instructions: built
    // here, so that the GUI thread only installs them.
    RunDisplay display = shouldCancel() ? RunDisplay{} : RunDisplay::build(outcome->result);
    return {std::move(outcome), std::move(display)};
}

} // namespace kl::app
