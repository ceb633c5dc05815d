#include "gui/RunFindings.h"

#include "findings/FindingsEngine.h"
#include "findings/FindingsRun.h"
#include "findings/RunFacts.h"
#include "task/TaskSpec.h"

#include <QObject>

namespace kl::app {

namespace {

QString describe(const Error& e) {
    QString text = QString::fromStdString(e.message);
    if (!e.file.empty()) {
        text = QString::fromStdString(e.file) + QStringLiteral(": ") + text;
    }
    return text;
}

} // namespace

std::shared_ptr<const RunFindings> analyseRun(const core::RunOutcome& run, const std::filesystem::path& taskDir) {
    auto out = std::make_shared<RunFindings>();
    if (!run.ir || !run.result) {
        out->error = QObject::tr("No simulated run.");
        return out;
    }
    // The front end lists the kernel's own file first; Accept anchors NKI lines of that file only.
    out->nkiFile = run.ir->files.empty() ? std::string() : run.ir->files.front();
    std::optional<core::TaskSpec> task;
    if (!taskDir.empty()) {
        if (auto spec = core::loadTaskSpec(taskDir)) { // it traced, so it loads
            task = std::move(*spec);
        }
    }
    auto engine = core::findings::FindingsEngine::createDefault();
    if (!engine) {
        out->error = describe(engine.error());
        return out;
    }
    auto findings = core::findings::findingsForRun(*engine, run, task ? &*task : nullptr);
    if (!findings) {
        out->error = describe(findings.error());
        return out;
    }
    out->findings = std::move(*findings);
    if (auto profile = core::findings::profileOfRun(run)) {
        const core::findings::RunFacts facts(*run.ir, *run.result);
        out->roofline = core::findings::rooflineOf(*run.result, *profile, facts.tensorBytes());
    }
    return out;
}

} // namespace kl::app
