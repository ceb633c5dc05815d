#include "report/MarkdownReport.h"

#include "report/AgreementSection.h"
#include "report/NumericsSection.h"
#include "report/ReportText.h"
#include "report/TextEscape.h"

#include <fmt/format.h>

namespace kl::core::report {

namespace {

/// Escaped text for a table cell: one line, pipes escaped.
std::string cell(std::string_view text) {
    std::string s = escapeMarkdown(text, false);
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.compare(i, 3, "  \n") == 0) {
            out += ' ';
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

/// Escaped text inside a block quote: continuation lines keep the "> " prefix.
std::string quoted(std::string_view text) {
    std::string s = escapeMarkdown(text);
    std::string out = "> ";
    for (const char c : s) {
        out += c;
        if (c == '\n') {
            out += "> ";
        }
    }
    return out;
}

std::string codeBlock(const Snippet& s) {
    std::string body;
    const int width = static_cast<int>(fmt::format("{}", s.firstLine + static_cast<int>(s.lines.size())).size());
    for (std::size_t i = 0; i < s.lines.size(); ++i) {
        body += fmt::format("{:>{}} | {}\n", s.firstLine + static_cast<int>(i), width, sanitizeUtf8(s.lines[i]));
    }
    const std::string fence = markdownFence(body);
    return fmt::format("{} {}\n{}{}\n", fence, s.language == "cuda" ? "cuda" : "python", body, fence);
}

/// The findings the reviewer did not accept, as a list: open ones with their suggestion, dismissed ones with the
/// reason.
void writeFindings(std::string& out, const ReportTask& t) {
    if (!t.findingsRan) {
        return;
    }
    out += fmt::format("### Findings not accepted ({})\n\n", t.findings.size());
    out += fmt::format("{} accepted finding{} appear{} among the annotations.\n\n", t.acceptedFindings,
                       t.acceptedFindings == 1 ? "" : "s", t.acceptedFindings == 1 ? "s" : "");
    for (const ReportFinding& f : t.findings) {
        // No code span around the rule: escaped text inside one would show its backslashes.
        out += fmt::format("- **{}** {}: {} ({}){}\n", toString(f.severity), cell(f.rule), cell(f.title),
                           cell(f.rubricItem), f.dismissed ? " *dismissed*" : "");
        if (!f.figures.empty()) {
            out += fmt::format("  - Figures: {}\n", cell(f.figures));
        }
        if (f.dismissed) {
            out += fmt::format("  - Dismissed by {}: {}\n",
                               cell(f.dismissedBy.empty() ? "the reviewer" : f.dismissedBy), cell(f.dismissalReason));
        } else {
            out += fmt::format("  - Suggestion: {}\n", cell(f.suggestion));
        }
    }
    out += t.findings.empty() ? "" : "\n";
}

void writeScorecard(std::string& out, const ReportTask& t) {
    const Scorecard& c = t.scorecard;
    out += "### Scorecard\n\n";
    out += fmt::format("**Result: {}** - overall {} / 5\n\n", toString(c.result), formatScore(c.overall));
    for (const std::string& reason : c.reasons) {
        out += fmt::format("- {}\n", escapeMarkdown(reason, false));
    }
    if (!c.reasons.empty()) {
        out += "\n";
    }
    out += "| Area | Item | Score | Annotations |\n|---|---|---|---|\n";
    for (const AreaScore& area : c.areas) {
        out += fmt::format("| **{}** | | {} | |\n", cell(area.title), formatScore(area.score));
        for (const ItemScore& item : area.items) {
            out += fmt::format("| | {} | {} | {} |\n", cell(item.title), cell(describeItemScore(item)),
                               item.annotationCount);
        }
    }
    out += "\n";
}

void writeAnnotation(std::string& out, const ReportTask& t, const ReportAnnotation& ra) {
    const Annotation& a = ra.annotation;
    const std::string item = a.rubricItem.empty() ? "general" : itemTitle(t, a.rubricItem);
    out += fmt::format("#### {}. {} - {} ({})\n\n", ra.number, toString(a.severity), escapeMarkdown(item, false),
                       a.resolved ? "resolved" : "open");
    out += fmt::format("- Anchor: {}\n", escapeMarkdown(describeAnchor(ra), false));
    if (!a.rubricItem.empty()) {
        out += fmt::format("- Rubric item: {}{}\n", escapeMarkdown(a.rubricItem, false),
                           a.score ? fmt::format(", suggested score {}", *a.score) : std::string());
    }
    out += fmt::format("- Author: {}, {}\n\n", escapeMarkdown(a.author, false), escapeMarkdown(a.createdAt, false));
    out += escapeMarkdown(a.text);
    out += "\n\n";
    for (const Snippet& s : ra.snippets) {
        out += fmt::format("{} source {}:\n\n", s.language == "cuda" ? "CUDA" : "NKI", escapeMarkdown(s.path, false));
        out += codeBlock(s);
        out += "\n";
    }
    for (const Reply& r : ra.replies) {
        // The whole reply is one block quote: every line of its text keeps the "> " prefix.
        out += fmt::format("> **{}** ({}):  \n{}\n\n", escapeMarkdown(r.author, false),
                           escapeMarkdown(r.createdAt, false), quoted(r.text));
    }
}

} // namespace

std::string MarkdownReport::write(const Report& report) {
    std::string out = fmt::format("# {}\n\n", escapeMarkdown(report.title));
    out += fmt::format("- Review file: {}\n", escapeMarkdown(report.reviewFile, false));
    out += fmt::format("- Rubric: {} {}\n", escapeMarkdown(report.rubricTitle, false),
                       escapeMarkdown(report.rubricVersion, false));
    out += fmt::format("- Generated: {}\n", escapeMarkdown(report.generatedAt, false));
    out += fmt::format("- Tasks: {}\n\n", report.tasks.size());
    if (report.team) {
        out += agreementMarkdown(*report.team);
    }
    for (const ReportTask& t : report.tasks) {
        out += fmt::format("## Task {}: {}\n\n", t.task.id, escapeMarkdown(t.task.title, false));
        out += "| | |\n|---|---|\n";
        out += fmt::format("| Folder | {} |\n", cell(t.task.folder));
        out += fmt::format("| Kernel | {} |\n", cell(t.kernel));
        if (!t.cudaKernel.empty()) {
            out += fmt::format("| CUDA kernel | {} |\n", cell(t.cudaKernel));
        }
        out += fmt::format("| Hardware | {} |\n", cell(t.hardware));
        out += fmt::format("| Status | {} |\n\n", toString(t.task.status));
        if (!t.description.empty()) {
            out += escapeMarkdown(t.description) + "\n\n";
        }
        out += "### Summary\n\n";
        if (t.metrics.empty()) {
            out += "No run stored and none simulated.\n\n";
        } else {
            out +=
                fmt::format("Source: {}.\n\n| Metric | Value |\n|---|---|\n", escapeMarkdown(t.metricsSource, false));
            for (const Metric& m : t.metrics) {
                out += fmt::format("| {} | {} |\n", cell(m.label), cell(m.value));
            }
            out += "\n";
        }
        writeScorecard(out, t);
        out += fmt::format("### Annotations ({})\n\n", t.annotations.size());
        for (const ReportAnnotation& ra : t.annotations) {
            writeAnnotation(out, t, ra);
        }
        writeFindings(out, t);
        out += numericsMarkdown(t);
    }
    return out;
}

} // namespace kl::core::report
