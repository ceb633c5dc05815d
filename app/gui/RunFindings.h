#pragma once

#include "findings/Finding.h"
#include "findings/Roofline.h"
#include "run/RunPipeline.h"

#include <QMetaType>
#include <QString>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kl::app {

/// What the findings rules say about one run, for the Findings dock: the findings (core/findings, as
/// `kernellens-cli findings` computes them), where the run sits on the roofline, and the kernel file as the IR
/// names it (where Accept anchors NKI lines). Computed on the simulation worker, then shared read-only.
struct RunFindings {
    std::vector<core::findings::Finding> findings;
    std::optional<core::findings::RooflinePoint> roofline;
    std::string nkiFile;
    QString error; ///< non-empty: the rules could not run (the reason, for the dock)
};

/// Runs the bundled findings rules over `run` (findings::findingsForRun, with the task's CUDA side when `taskDir`
/// is a task folder) and places it on its hardware's roofline. Blocking: call it on a worker thread.
[[nodiscard]] std::shared_ptr<const RunFindings> analyseRun(const core::RunOutcome& run,
                                                            const std::filesystem::path& taskDir);

} // namespace kl::app

Q_DECLARE_METATYPE(std::shared_ptr<const kl::app::RunFindings>)
