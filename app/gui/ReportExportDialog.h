#pragma once

#include <QString>

class QWidget;

namespace kl::app {

/// File > Export Report: asks for the format (HTML, PDF, Markdown, JSON, CSV), one task or all tasks
/// and the output path, then writes the report of the review at `reviewPath`, with a cancellable
/// progress dialog while tasks are gathered (and re-simulated from their stored sources when needed).
/// Opens its own connection to the review file; modal; reports success or the error in a message box.
/// Re-simulating runs the review's kernels, so it is offered only when `kernelsTrusted` (the review is trusted,
/// TrustGate); otherwise the report uses stored runs only.
void showReportExportDialog(QWidget* parent, const QString& reviewPath, bool kernelsTrusted = false);

} // namespace kl::app
