#pragma once

#include "analysis/RangeStatistics.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <QTextBrowser>

#include <memory>

namespace kl::views {

/// Shows the selected instruction (operation, engine, operands, timing, why it waited, source line) or the
/// statistics of a selected time range. Links in the text jump: "instr:N" to another instruction, "line:N"
/// to an NKI source line; the owner connects the signals.
class InspectorPane : public QTextBrowser {
    Q_OBJECT
public:
    explicit InspectorPane(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const sim::KernelIr> ir, std::shared_ptr<const sim::SimResult> result);
    void showInstruction(std::uint32_t index);
    /// A spill or reload transfer: its tile (linked to its declaration), queue, times and the instruction it
    /// served (linked).
    void showSpill(std::uint32_t transfer);
    void showRange(const core::RangeStatistics& stats);
    void showNothing();

signals:
    void instructionLinkActivated(qint64 index);
    void sourceLineLinkActivated(int line);

private:
    [[nodiscard]] QString operandsHtml(const sim::Instruction& in) const;

    std::shared_ptr<const sim::KernelIr> m_ir;
    std::shared_ptr<const sim::SimResult> m_result;
};

} // namespace kl::views
