#pragma once

#include "engine/SimTypes.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What a findings rule reports (docs/findings.md). Plain values: rules build them, the CLI prints them, a
// Findings dock lists them and turns an accepted one into an annotation (rubric item, severity, anchors, text).
namespace kl::core::findings {

/// A measured value, with the threshold it was held against when there is one ("exposed DMA 83.9 % of the run,
/// threshold 25 %").
struct Figure {
    std::string name; ///< snake_case, stable per rule: "exposed_dma_pct"
    double value = 0;
    std::string unit; ///< "%", "ns", "B", "B/ns", "FLOP/ns", "instructions", ... ; empty for a plain count
    std::optional<double> threshold;
};

/// Program-order instruction indices (rows of the simulated timeline), both ends inclusive. The IR id of index i
/// is SimResult::timeline.irId(i) (equal to i for IR written by the front end).
struct InstructionRange {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    bool operator==(const InstructionRange&) const = default;
};

/// Simulated time, [startPs, endPs).
struct TimeRange {
    sim::TimePs startPs = 0;
    sim::TimePs endPs = 0;
    bool operator==(const TimeRange&) const = default;
};

enum class SourceSide { Nki, Cuda };

/// Lines of a kernel source: an NKI file named as in the Kernel IR's `files` (relative to the task folder), or the
/// task's CUDA file.
struct SourceRange {
    SourceSide side = SourceSide::Nki;
    std::string file;
    int firstLine = 0; ///< 1-based, inclusive
    int lastLine = 0;
    bool operator==(const SourceRange&) const = default;
};

/// One piece of evidence: a short note and what it points at. Long lists are capped (kMaxRanges each);
/// `instructionCount` keeps the full count.
struct EvidenceItem {
    std::string note;
    std::vector<InstructionRange> instructions;
    std::uint64_t instructionCount = 0;
    std::vector<TimeRange> times;
    std::vector<SourceRange> lines;
};

/// How many ranges of each kind an evidence item keeps.
inline constexpr std::size_t kMaxRanges = 16;

struct Finding {
    std::string rule; ///< the rule's stable id: "exposed-dma"
    std::string title;
    Severity severity = Severity::Minor; ///< the review file's severities (blocking, major, minor, nit, praise)
    std::string rubricItem;              ///< an item id of the default rubric: "perf.overlap"
    std::vector<Figure> figures;
    std::vector<EvidenceItem> evidence;
    std::string suggestion; ///< what to do, in a sentence or two

    [[nodiscard]] const Figure* figure(std::string_view name) const;
};

[[nodiscard]] std::string_view toString(SourceSide side);

} // namespace kl::core::findings
