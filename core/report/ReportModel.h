#pragma once

#include "numerics/NumericsResult.h"

#include "result/SimResult.h"
#include "review/ReviewTypes.h"
#include "review/TeamRepository.h"
#include "rubric/Scorecard.h"
#include "team/AgreementReport.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// What a report says, gathered once from a review file (ReportBuilder) and written by each format
// (MarkdownReport, JsonReport, CsvReport, HtmlReport, and the PDF writer in app/report). Plain values:
// the writers never touch the database, so tests build a Report by hand (hostile text included).
// Text is UTF-8 as stored; writers replace invalid sequences with U+FFFD (see TextEscape.h).
namespace kl::core::report {

/// One summary figure, already formatted for people ("48.58 ms", "37.2 %").
struct Metric {
    std::string key;   ///< JSON path in the run summary, e.g. "engine_active_pct.tensor"
    std::string label; ///< "TensorE active"
    std::string value; ///< formatted with its unit
};

/// Source lines an annotation points at (an NKI or CUDA line range, or an instruction's NKI line).
struct Snippet {
    std::string language; ///< "nki" or "cuda"
    std::string path;     ///< file name as stored in the review
    int firstLine = 0;    ///< 1-based number of lines.front()
    std::vector<std::string> lines;
};

/// The instruction an annotation is pinned to, as the simulated run placed it.
struct InstructionInfo {
    std::uint32_t index = 0; ///< program-order index in the timeline
    std::int64_t irId = 0;
    std::string op;
    std::string lane;
    sim::TimePs startPs = 0;
    sim::TimePs endPs = 0;
    std::uint32_t line = 0;
    std::string waitCause;
};

struct ReportAnnotation {
    int number = 0; ///< 1-based, the number of its marker on the timeline image
    Annotation annotation;
    std::vector<Reply> replies;
    std::optional<InstructionInfo> instruction; ///< Instruction anchors resolved in the run, when there is one
    std::vector<Snippet> snippets;
};

/// A finding of the run behind the report that the reviewer did not accept (an accepted one is an annotation
/// already): open, or dismissed with the reviewer's reason. Figures are formatted for people.
struct ReportFinding {
    std::string key; ///< findings::findingKeys: the rule id, "#2" for a rule's second finding
    Severity severity = Severity::Minor;
    std::string rule;
    std::string title;
    std::string rubricItem;
    std::string figures; ///< "exposed_dma_pct 83.9 % (threshold 25 %), ..."
    std::string suggestion;
    bool dismissed = false;
    std::string dismissalReason;
    std::string dismissedBy;
};

/// One comparison of a stored numerics run (docs/numerics-json.md), figures as the document had them.
struct ReportNumericsComparison {
    std::string output;
    std::string dtype;
    std::string comparison;     ///< "nki_vs_exact", "gpu_vs_exact", "nki_vs_gpu"
    NumericsComparison figures; ///< without its worst elements (the report lists figures only)
};

/// An instruction that added much rounding error in a numerics run.
struct ReportNumericsInstruction {
    std::int64_t index = 0;
    std::string op;
    std::string file;
    int line = 0;
    double addedError = 0;
};

/// A numerics run stored in the review (table numerics_run): how it ran and its comparisons.
struct ReportNumericsRun {
    std::int64_t id = 0;
    std::string createdAt;
    std::string kernel;
    std::string inputs; ///< "normal, seed 0"
    std::string reference;
    std::string cudaNumerics;
    std::string tolerance; ///< toleranceSummary()
    bool passed = false;
    std::vector<ReportNumericsComparison> comparisons;
    std::vector<ReportNumericsInstruction> topInstructions; ///< at most 5, largest first
    std::string problem; ///< the stored document could not be read: why (the row's summary is still listed)
};

struct ReportTask {
    Task task;
    std::string kernel;        ///< from the stored task.json
    std::string cudaKernel;    ///< idem, may be empty
    std::string hardware;      ///< idem; when not given, the profile of the run behind the report
    std::string description;   ///< idem
    std::string metricsSource; ///< "stored run 'baseline' (2026-...)", "re-simulated", or "" when none
    std::vector<Metric> metrics;
    Scorecard scorecard;
    std::vector<ReportAnnotation> annotations;
    bool findingsRan = false;                     ///< the findings rules ran over this task (BuildOptions::findings)
    int acceptedFindings = 0;                     ///< findings the reviewer accepted: listed among the annotations
    std::vector<ReportFinding> findings;          ///< the rest, most severe first, dismissed ones last
    std::vector<ReportNumericsRun> numerics;      ///< numerics runs stored for the task, oldest first
    std::shared_ptr<const sim::SimResult> result; ///< the run behind the timeline, null when not simulated
    std::string timelinePng; ///< PNG bytes of the annotated timeline, empty when none (filled by the Qt side)
    int timelineWidth = 0;   ///< pixel size of timelinePng
    int timelineHeight = 0;
    std::vector<std::string> warnings; ///< e.g. a re-simulation that failed; the report is still written
};

/// A merged (team) review's agreement between reviewers and the agreed grades with their reasons.
struct TeamSection {
    team::AgreementReport agreement;
    std::vector<Adjudication> adjudications;
    std::map<std::int64_t, std::string> taskTitles; ///< for the adjudications
};

struct Report {
    std::string title;      ///< "Review report: <rubric title>"
    std::string reviewFile; ///< file name only (no folders: reports carry no absolute paths)
    std::string rubricId;
    std::string rubricTitle;
    std::string rubricVersion;
    std::string generatedAt; ///< injected by the caller (tests use a fixed value)
    std::vector<ReportTask> tasks;
    std::optional<TeamSection> team; ///< only for a team review (review merge)
};

} // namespace kl::core::report
