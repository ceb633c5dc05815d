#include "report/ReportText.h"

#include <fmt/format.h>

namespace kl::core::report {

std::string formatTime(sim::TimePs ps) {
    const double v = static_cast<double>(ps);
    if (ps < 1'000'000) {
        return fmt::format("{:.3f} ns", v / 1e3);
    }
    if (ps < 1'000'000'000) {
        return fmt::format("{:.3f} us", v / 1e6);
    }
    return fmt::format("{:.3f} ms", v / 1e9);
}

std::string describeAnchor(const ReportAnnotation& a) {
    const Anchor& anchor = a.annotation.anchor;
    switch (anchor.kind) {
    case AnchorKind::TimeRange:
        return fmt::format("time {} - {}", formatTime(anchor.t0Ns * 1000), formatTime(anchor.t1Ns * 1000));
    case AnchorKind::Instruction:
        if (a.instruction) {
            const InstructionInfo& i = *a.instruction;
            return fmt::format("instruction {} ({} on {}, {} - {}{}{})", anchor.instructionId, i.op, i.lane,
                               formatTime(i.startPs), formatTime(i.endPs),
                               i.line > 0 ? fmt::format(", NKI line {}", i.line) : std::string(),
                               i.waitCause.empty() ? std::string() : fmt::format(", waited: {}", i.waitCause));
        }
        return fmt::format("instruction {}", anchor.instructionId);
    case AnchorKind::NkiLines:
    case AnchorKind::CudaLines: {
        const char* which = anchor.kind == AnchorKind::NkiLines ? "NKI" : "CUDA";
        if (anchor.firstLine == anchor.lastLine) {
            return fmt::format("{} line {}", which, anchor.firstLine);
        }
        return fmt::format("{} lines {}-{}", which, anchor.firstLine, anchor.lastLine);
    }
    }
    return {};
}

std::string describeItemScore(const ItemScore& item) {
    if (!item.value) {
        return "unscored";
    }
    if (item.kind == ScaleKind::PassFail) {
        return *item.value != 0 ? "pass" : "fail";
    }
    return item.meaning.empty() ? fmt::format("{}", *item.value) : item.meaning;
}

std::string formatScore(const std::optional<double>& score) {
    return score ? fmt::format("{:.2f}", *score) : "-";
}

std::string itemTitle(const ReportTask& task, const std::string& itemId) {
    for (const AreaScore& area : task.scorecard.areas) {
        for (const ItemScore& item : area.items) {
            if (item.itemId == itemId) {
                return item.title;
            }
        }
    }
    return itemId;
}

bool hasTimelineMarker(const ReportAnnotation& a) {
    return a.annotation.anchor.kind == AnchorKind::TimeRange || a.instruction.has_value();
}

std::pair<sim::TimePs, sim::TimePs> markerInterval(const ReportAnnotation& a) {
    if (a.instruction) {
        return {a.instruction->startPs, a.instruction->endPs};
    }
    return {a.annotation.anchor.t0Ns * 1000, a.annotation.anchor.t1Ns * 1000};
}

} // namespace kl::core::report
