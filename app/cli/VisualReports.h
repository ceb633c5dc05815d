#pragma once

#include "common/Error.h"
#include "report/ReportModel.h"
#include "report/ReportWriter.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kl::app {

/// Writes a visual report (core::report::isVisual: the PDF, or HTML with every task's timeline image). Only a
/// process with Qt can: kernellens-cli-qt installs report::writeVisualReport at start. kernellens-cli links no Qt
/// and hands such a `report` command to kernellens-cli-qt whole (forwardToQtHalf).
using VisualReportWriter = Expected<void> (*)(core::report::Report& report, core::report::ReportFormat format,
                                              const std::string& path);

void installVisualReportWriter(VisualReportWriter writer);
/// The installed writer, or nullptr in a process without Qt.
[[nodiscard]] VisualReportWriter visualReportWriter();

/// kernellens-cli-qt beside this executable (a build tree) or in PREFIX/libexec/kernellens (installed), when it
/// exists and may be run.
[[nodiscard]] std::optional<std::filesystem::path> qtHalfProgram();

/// Replaces this process with `program` running `kernellens-cli-qt COMMAND ARGS...`, with this program's data
/// (core::dataRoot) as KL_DATA_DIR. Returns only when that fails, with the reason.
[[nodiscard]] Error forwardToQtHalf(const std::filesystem::path& program, const std::string& command,
                                    const std::vector<std::string>& args);

} // namespace kl::app
