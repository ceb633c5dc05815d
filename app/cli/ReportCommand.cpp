// `kernellens-cli report`: an annotated report of a review file in HTML, PDF, Markdown, JSON or CSV.
#include "cli/CliSupport.h"
#include "cli/Commands.h"

#include "report/ReportBuilder.h"
#include "report/ReportWriter.h"
#include "report/TextEscape.h"
#include "review/ReviewFile.h"
#include "review/TextCheck.h"
#include "cli/VisualReports.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace kl::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kReportUsage =
    R"(Usage: kernellens-cli report REVIEW.klreview [--task ID] --format html|pdf|md|json|csv -o OUT
                             [--trust | --no-simulate] [--generated-at TEXT]

Writes an annotated report of the review: per task the header (title, kernel, hardware), summary
metrics, the rubric scorecard, the timeline with numbered annotation markers (HTML, PDF), and every
annotation with its anchor (time range, instruction, NKI/CUDA source lines), severity, score, replies
and resolved state.

Formats:
  html   one self-contained file (inline CSS, image as data: URI), prints well
  pdf    the same content on A4
  md     Markdown (no image)
  json   for pipelines; schema: docs/report-schema.json
  csv    rubric scores, one row per task and item

Metrics and timelines come from the runs stored in the review. A task without a stored run (or a
visual report, which draws the run's timeline) needs the review's kernels run again: that runs code
from whoever wrote the review, so it happens only with --trust. Without it the report uses the
stored runs and says which tasks it could not re-simulate.

Options:
  --task ID            only this task (default: every task in queue order)
  --format F           as above (default: from the extension of OUT)
  -o, --output FILE    where the report goes
  --trust              trust the review's kernels: re-simulate the stored sources where a run is missing
                       (in the sandbox, as the GUI does after "Trust and Run"), and list each task's findings
                       that were not accepted (dismissed ones with their reason; docs/findings.md)
  --no-simulate        use only stored run summaries and do not mention the ones missing
  --generated-at TEXT  the "generated" stamp (default: now, UTC), for reproducible output
)";

using core::report::ReportFormat;

struct ReportArgs {
    std::string review;
    std::optional<std::int64_t> task;
    std::optional<ReportFormat> format;
    std::string output;
    bool trust = false;       ///< --trust: the review's kernels may run
    bool quietStored = false; ///< --no-simulate: stored runs only, without the note about --trust
    std::optional<std::string> generatedAt;
};

Expected<ReportArgs> parseArgs(const std::vector<std::string>& args) {
    auto line = parseCommandLine(
        args, {{"--task", "--format", "-o", "--output", "--generated-at"}, {"--no-simulate", "--trust"}, true});
    KL_TRY(line);
    if (line->positional.size() > 1) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("unexpected argument '{}'", line->positional[1]));
    }
    ReportArgs r;
    r.review = line->positional.empty() ? std::string() : line->positional[0];
    r.output = line->get("--output").or_else([&] { return line->get("-o"); }).value_or("");
    r.generatedAt = line->get("--generated-at");
    r.trust = line->has("--trust");
    r.quietStored = line->has("--no-simulate");
    if (auto task = line->get("--task")) {
        const auto id = parseInteger(*task);
        if (!id || *id <= 0) {
            return makeError(ErrorCode::InvalidArgument, "--task needs a task id (a positive number)");
        }
        r.task = *id;
    }
    if (auto format = line->get("--format")) {
        r.format = core::report::parseReportFormat(*format);
        if (!r.format) {
            return makeError(ErrorCode::InvalidArgument, fmt::format("unknown format '{}'", *format), {}, 0,
                             "use html, pdf, md, json or csv");
        }
    }
    if (r.trust && r.quietStored) {
        return makeError(ErrorCode::InvalidArgument, "--trust and --no-simulate contradict each other");
    }
    if (r.review.empty() || r.output.empty()) {
        return makeError(ErrorCode::InvalidArgument, "report needs REVIEW.klreview and -o OUT");
    }
    if (!r.format) {
        std::string ext = fs::path(r.output).extension().string();
        r.format = ext.empty() ? std::nullopt : core::report::parseReportFormat(ext.substr(1));
        if (!r.format) {
            return makeError(ErrorCode::InvalidArgument, "give --format html|pdf|md|json|csv");
        }
    }
    return r;
}

/// A task whose report wanted a run that it does not have: with --trust it would have been re-simulated.
bool missesARun(const core::report::ReportTask& t, bool visual) {
    const auto instructionAnchor = [](const core::report::ReportAnnotation& a) {
        return a.annotation.anchor.kind == core::AnchorKind::Instruction;
    };
    return !t.result &&
           (visual || t.metrics.empty() || std::any_of(t.annotations.begin(), t.annotations.end(), instructionAnchor));
}

int runReport(const ReportArgs& a, const std::vector<std::string>& args) {
    const bool visual = core::report::isVisual(*a.format);
    const VisualReportWriter drawImages = visualReportWriter();
    if (visual && !drawImages) {
        // This process has no Qt: the Qt half runs the whole command, so nothing is done (or simulated) twice.
        if (const auto qtHalf = qtHalfProgram()) {
            return fail(forwardToQtHalf(*qtHalf, "report", args), 1);
        }
        if (a.format == ReportFormat::Pdf) {
            return fail(Error{ErrorCode::Unsupported,
                              "this kernellens-cli has no Qt half (kernellens-cli-qt) and cannot write PDF",
                              {},
                              0,
                              "use --format html and print it, or build with KL_BUILD_GUI=ON"},
                        1);
        }
    }
    auto file = core::ReviewFile::open(a.review);
    if (!file) {
        return fail(file.error(), 1);
    }
    core::report::BuildOptions options;
    options.taskId = a.task;
    options.generatedAt = a.generatedAt.value_or(core::utcNow());
    options.wantRun = visual;
    if (a.trust) {
        // One trace per task serves both the run and the findings listed beside the annotations.
        auto stored = core::report::storedTaskCallbacks([](const core::Task& task) {
            printText(stderr, fmt::format("simulating task {} ({}) from its stored sources...\n", task.id,
                                          core::report::terminalText(task.folder)));
        });
        options.simulate = std::move(stored.simulate);
        options.findings = std::move(stored.findings);
    }
    core::report::ReportBuilder builder(*file, options);
    auto report = builder.build();
    if (!report) {
        return fail(report.error(), report.error().code == ErrorCode::NotFound ? 2 : 1);
    }
    for (const auto& t : report->tasks) {
        for (const std::string& w : t.warnings) {
            std::fprintf(stderr, "warning: %s\n", w.c_str());
        }
        if (!a.trust && !a.quietStored && missesARun(t, visual)) {
            std::fprintf(stderr,
                         "note: task %lld (%s) was not re-simulated: that would run the kernel stored in the review, "
                         "code from whoever wrote it; pass --trust to run it in the sandbox, or --no-simulate to "
                         "use stored runs without this note\n",
                         static_cast<long long>(t.task.id), core::report::sanitizeUtf8(t.task.folder).c_str());
        }
    }
    const Expected<void> written = visual && drawImages ? drawImages(*report, *a.format, a.output)
                                                        : core::report::writeReport(*report, *a.format, a.output);
    if (!written) {
        return fail(written.error(), 1);
    }
    return 0;
}

} // namespace

int runReportCommand(const std::vector<std::string>& args) {
    return runParsed(args, kReportUsage, parseArgs, [&](const ReportArgs& a) { return runReport(a, args); });
}

} // namespace kl::app
