#pragma once

#include "findings/Finding.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kl::core::findings {

/// Instructions that come from one NKI line (their innermost frame), with the time they took.
struct LineGroup {
    sim::SourceLoc loc;
    std::vector<std::uint32_t> indices; ///< ascending program order
    sim::TimePs busyPs = 0;
};

/// Turns sets of instructions into evidence: merged index ranges, the time they ran and the NKI lines they come
/// from, each capped at kMaxRanges. Rules share it so every finding points at its evidence the same way.
class EvidenceBuilder {
public:
    EvidenceBuilder(const sim::KernelIr& ir, const sim::SimResult& result) : m_ir(ir), m_result(result) {}

    /// An item over `indices` (ascending program order): index ranges, time ranges (merged; the longest
    /// kMaxRanges when there are more) and the NKI lines (most instructions first).
    [[nodiscard]] EvidenceItem item(std::string note, std::span<const std::uint32_t> indices) const;
    /// The instructions grouped by NKI line, the group that took the most time first.
    [[nodiscard]] std::vector<LineGroup> byLine(std::span<const std::uint32_t> indices) const;
    /// The NKI line of an instruction's innermost frame ("" file and line 0 when unknown).
    [[nodiscard]] SourceRange line(sim::SourceLoc loc) const;
    /// "kernel.py:26", or "(no source line)".
    [[nodiscard]] std::string where(sim::SourceLoc loc) const;

private:
    const sim::KernelIr& m_ir;
    const sim::SimResult& m_result;
};

/// Sorted, disjoint intervals covering the same time as `raw` (any order, overlaps allowed).
[[nodiscard]] std::vector<std::pair<sim::TimePs, sim::TimePs>>
mergedIntervals(std::vector<std::pair<sim::TimePs, sim::TimePs>> raw);

/// Merged, sorted index ranges of ascending indices; more than kMaxRanges: the first kMaxRanges.
[[nodiscard]] std::vector<InstructionRange> indexRanges(std::span<const std::uint32_t> indices);
/// The longest kMaxRanges of sorted disjoint intervals, in time order.
[[nodiscard]] std::vector<TimeRange> longestRanges(const std::vector<std::pair<sim::TimePs, sim::TimePs>>& intervals);

} // namespace kl::core::findings
