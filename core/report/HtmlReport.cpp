#include "report/HtmlReport.h"

#include "report/AgreementSection.h"
#include "report/NumericsSection.h"

#include "report/ReportText.h"
#include "report/TextEscape.h"
#include "review/SeverityPalette.h"

#include <fmt/format.h>

#include <utility>

namespace kl::core::report {

namespace {

constexpr const char* kCss = R"(
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: #1d232a; margin: 2em auto; max-width: 1100px; padding: 0 1.5em; line-height: 1.45; font-size: 14px; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.35em; border-bottom: 2px solid #2d6cdf; padding-bottom: 0.2em; margin-top: 2em; }
h3 { font-size: 1.1em; margin-top: 1.4em; color: #2d3b4e; }
.meta { color: #5b6573; margin: 0; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #d4d9e0; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f3f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.area td { background: #f7f9fb; font-weight: bold; }
.result { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: bold; color: #fff; }
.result.pass { background: #2e8540; } .result.fail { background: #c62828; } .result.incomplete { background: #8a6d00; }
figure { margin: 0.5em 0 1em; } figure img { max-width: 100%; height: auto; border: 1px solid #d4d9e0; }
figcaption { color: #5b6573; font-size: 0.9em; }
ol.annotations { list-style: none; padding: 0; }
li.annotation { border: 1px solid #d4d9e0; border-left: 6px solid #8893a0; border-radius: 4px; padding: 0.5em 0.9em; margin: 0.7em 0; page-break-inside: avoid; break-inside: avoid; }
li.sev-blocking { border-left-color: @blocking@; } li.sev-major { border-left-color: @major@; } li.sev-minor { border-left-color: @minor@; }
table.findings { border-collapse: collapse; width: 100%; } table.findings td, table.findings th { border-bottom: 1px solid #d4d9e0; text-align: left; vertical-align: top; }
tr.dismissed { color: #8893a0; }
li.sev-nit { border-left-color: @nit@; } li.sev-praise { border-left-color: @praise@; }
.marker { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 0.8em; background: #1d232a; color: #fff; font-weight: bold; margin-right: 0.4em; }
.sev { font-weight: bold; text-transform: uppercase; font-size: 0.85em; }
.state { font-size: 0.85em; padding: 1px 6px; border-radius: 6px; background: #eef1f5; }
.state.resolved { background: #dff0e2; color: #1e5e2b; }
.anchor { color: #3c4654; font-size: 0.92em; }
.text { white-space: pre-wrap; margin: 0.4em 0; }
pre.code { background: #f6f8fa; border: 1px solid #e1e5ea; padding: 0.4em 0.6em; overflow-x: auto; font-size: 12px; margin: 0.3em 0; }
pre.code .ln { color: #8893a0; user-select: none; }
.reply { border-left: 3px solid #d4d9e0; margin: 0.3em 0 0.3em 0.6em; padding-left: 0.6em; }
.who { font-weight: bold; } .when { color: #5b6573; font-size: 0.85em; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  section.task { page-break-before: always; break-before: page; }
  section.task:first-of-type { page-break-before: auto; break-before: auto; }
  h2, h3 { page-break-after: avoid; break-after: avoid; }
  figure img { max-width: 100%; }
  a { color: inherit; text-decoration: none; }
}
)";

std::string h(std::string_view s) {
    return escapeHtml(s);
}

/// kCss with each `@severity@` replaced by the palette's mark colour (core/review/SeverityPalette).
const std::string& css() {
    static const std::string text = [] {
        std::string s = kCss;
        constexpr std::pair<std::string_view, Severity> kTokens[] = {{"@blocking@", Severity::Blocking},
                                                                     {"@major@", Severity::Major},
                                                                     {"@minor@", Severity::Minor},
                                                                     {"@nit@", Severity::Nit},
                                                                     {"@praise@", Severity::Praise}};
        for (const auto& [token, severity] : kTokens) {
            s.replace(s.find(token), token.size(), severityColours(severity).mark);
        }
        return s;
    }();
    return text;
}

std::string severityColour(Severity s) {
    return std::string(severityColours(s).text);
}

std::string snippetHtml(const Snippet& s) {
    std::string out = fmt::format("<div class=\"anchor\">{} source {}</div><pre class=\"code\">",
                                  s.language == "cuda" ? "CUDA" : "NKI", h(s.path));
    const int width = static_cast<int>(fmt::format("{}", s.firstLine + static_cast<int>(s.lines.size())).size());
    for (std::size_t i = 0; i < s.lines.size(); ++i) {
        out += fmt::format("<span class=\"ln\">{:>{}} </span>{}\n", s.firstLine + static_cast<int>(i), width,
                           h(s.lines[i]));
    }
    out += "</pre>\n";
    return out;
}

/// Text with newlines kept: QTextDocument ignores white-space: pre-wrap, so it gets <br>.
std::string multiline(std::string_view text, bool qt) {
    std::string escaped = h(text);
    if (!qt) {
        return escaped;
    }
    std::string out;
    for (const char c : escaped) {
        out += c == '\n' ? std::string("<br>") : std::string(1, c);
    }
    return out;
}

void writeScorecard(std::string& out, const ReportTask& t, const HtmlReport::Options& o) {
    const Scorecard& c = t.scorecard;
    const char* resultColour = c.result == ScorecardResult::Pass   ? "#2e8540"
                               : c.result == ScorecardResult::Fail ? "#c62828"
                                                                   : "#8a6d00";
    out += "<h3>Scorecard</h3>\n";
    out += fmt::format(
        "<p><span class=\"result {0}\" style=\"background:{1}\"><font color=\"#ffffff\">&nbsp;{0}&nbsp;</font></span> "
        "overall <b>{2}</b> / 5</p>\n",
        toString(c.result), resultColour, formatScore(c.overall));
    if (!c.reasons.empty()) {
        out += "<ul class=\"reasons\">";
        for (const std::string& r : c.reasons) {
            out += fmt::format("<li>{}</li>", h(r));
        }
        out += "</ul>\n";
    }
    out += o.forQtTextDocument ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">"
                               : "<table class=\"scorecard\">";
    out += "<tr><th>Area / item</th><th>Score</th><th>Annotations</th></tr>\n";
    for (const AreaScore& a : c.areas) {
        out += fmt::format("<tr class=\"area\"><td{}><b>{}</b></td><td class=\"num\"><b>{}</b></td><td></td></tr>\n",
                           o.forQtTextDocument ? " bgcolor=\"#f0f3f7\"" : "", h(a.title), formatScore(a.score));
        for (const ItemScore& i : a.items) {
            out += fmt::format("<tr><td>&nbsp;&nbsp;&nbsp;{}</td><td>{}</td><td class=\"num\">{}</td></tr>\n",
                               h(i.title), h(describeItemScore(i)), i.annotationCount);
        }
    }
    out += "</table>\n";
}

void writeAnnotation(std::string& out, const ReportTask& t, const ReportAnnotation& ra, const HtmlReport::Options& o) {
    const Annotation& a = ra.annotation;
    const std::string sev(toString(a.severity));
    const std::string colour = severityColour(a.severity);
    if (o.forQtTextDocument) {
        // QTextDocument draws no borders on <li>/<div>: a one-cell table carries the coloured edge.
        out += fmt::format("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"5\" style=\"margin-top:8px\"><tr>"
                           "<td width=\"6\" bgcolor=\"{}\"></td><td bgcolor=\"#fafbfc\">",
                           colour);
    } else {
        out += fmt::format("<li class=\"annotation sev-{}\" id=\"t{}-a{}\">", sev, t.task.id, ra.number);
    }
    const std::string item = a.rubricItem.empty() ? "general" : itemTitle(t, a.rubricItem);
    out +=
        fmt::format("<div><span class=\"marker\"><b>&nbsp;{}&nbsp;</b></span> <span class=\"sev\" "
                    "style=\"color:{}\"><b>{}</b></span> "
                    "<b>{}</b> <span class=\"state{}\">{}</span></div>\n",
                    ra.number, colour, sev, h(item), a.resolved ? " resolved" : "", a.resolved ? "resolved" : "open");
    out += fmt::format("<div class=\"anchor\"><i>{}</i>", h(describeAnchor(ra)));
    if (a.score) {
        out += fmt::format(" &middot; suggested score {}", *a.score);
    }
    out += fmt::format(" &middot; {} &middot; {}</div>\n", h(a.author), h(a.createdAt));
    out += fmt::format("<p class=\"text\">{}</p>\n", multiline(a.text, o.forQtTextDocument));
    for (const Snippet& s : ra.snippets) {
        out += snippetHtml(s);
    }
    for (const Reply& r : ra.replies) {
        out += fmt::format("<div class=\"reply\"><span class=\"who\">{}</span> <span class=\"when\">{}</span>"
                           "<div class=\"text\">{}</div></div>\n",
                           h(r.author), h(r.createdAt), multiline(r.text, o.forQtTextDocument));
    }
    out += o.forQtTextDocument ? "</td></tr></table>\n" : "</li>\n";
}

/// The findings the reviewer did not accept: open ones, then dismissed ones greyed with their reason.
void writeFindings(std::string& out, const ReportTask& t) {
    if (!t.findingsRan) {
        return;
    }
    out += fmt::format("<h3>Findings not accepted ({})</h3>\n", t.findings.size());
    out += fmt::format("<p class=\"meta\">What the findings rules pointed out in this run; {} accepted finding{} "
                       "appear{} among the annotations above.</p>\n",
                       t.acceptedFindings, t.acceptedFindings == 1 ? "" : "s", t.acceptedFindings == 1 ? "s" : "");
    if (t.findings.empty()) {
        return;
    }
    out += "<table class=\"findings\" cellspacing=\"0\" cellpadding=\"4\">\n<tr><th>Severity</th><th>Rule</th>"
           "<th>Finding</th><th>Rubric item</th></tr>\n";
    for (const ReportFinding& f : t.findings) {
        const std::string sev(toString(f.severity));
        out += fmt::format("<tr class=\"finding{}\"><td style=\"color:{}\"><b>{}</b></td><td><code>{}</code></td>"
                           "<td><b>{}</b>",
                           f.dismissed ? " dismissed" : "", f.dismissed ? "#8893a0" : severityColour(f.severity), sev,
                           h(f.rule), h(f.title));
        if (!f.figures.empty()) {
            out += fmt::format("<br><span class=\"meta\">{}</span>", h(f.figures));
        }
        if (f.dismissed) {
            out += fmt::format("<br><i>Dismissed by {}: {}</i>",
                               h(f.dismissedBy.empty() ? "the reviewer" : f.dismissedBy), h(f.dismissalReason));
        } else {
            out += fmt::format("<br>Suggestion: {}", h(f.suggestion));
        }
        out += fmt::format("</td><td>{}</td></tr>\n", h(itemTitle(t, f.rubricItem)));
    }
    out += "</table>\n";
}

void writeTask(std::string& out, const ReportTask& t, const HtmlReport::Options& o) {
    out += fmt::format("<section class=\"task\" id=\"task-{}\">\n<h2>Task {}: {}</h2>\n", t.task.id, t.task.id,
                       h(t.task.title));
    out += fmt::format("<p class=\"meta\">Folder <b>{}</b> &middot; kernel <b>{}</b>", h(t.task.folder), h(t.kernel));
    if (!t.cudaKernel.empty()) {
        out += fmt::format(" &middot; CUDA kernel <b>{}</b>", h(t.cudaKernel));
    }
    out += fmt::format(" &middot; hardware <b>{}</b> &middot; status <b>{}</b></p>\n", h(t.hardware),
                       toString(t.task.status));
    if (!t.description.empty()) {
        out += fmt::format("<p>{}</p>\n", h(t.description));
    }
    out += "<h3>Summary</h3>\n";
    if (t.metrics.empty()) {
        out += "<p>No run stored and none simulated.</p>\n";
    } else {
        out += fmt::format("<p class=\"meta\">Source: {}.</p>\n", h(t.metricsSource));
        out += o.forQtTextDocument ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">"
                                   : "<table class=\"metrics\">";
        for (const Metric& m : t.metrics) {
            out += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td></tr>\n", h(m.label), h(m.value));
        }
        out += "</table>\n";
    }
    writeScorecard(out, t, o);
    if (!t.timelinePng.empty()) {
        const std::string src = o.imageSource ? o.imageSource(t) : "data:image/png;base64," + base64(t.timelinePng);
        // Both dimensions when a width is asked for: QTextDocument reserves the image's own height otherwise.
        const std::string width = o.imageWidth <= 0     ? std::string()
                                  : t.timelineWidth > 0 ? fmt::format(" width=\"{}\" height=\"{}\"", o.imageWidth,
                                                                      o.imageWidth * t.timelineHeight / t.timelineWidth)
                                                        : fmt::format(" width=\"{}\"", o.imageWidth);
        // QTextDocument knows no <figure>: it gets a plain paragraph per part.
        const bool qt = o.forQtTextDocument;
        out += fmt::format("<h3>Timeline</h3>\n{}<img src=\"{}\"{} alt=\"Timeline of task {} with numbered annotation "
                           "markers\">{}Numbers mark the annotations below that are pinned to a time range or an "
                           "instruction.{}\n",
                           qt ? "<p>" : "<figure>", h(src), width, t.task.id,
                           qt ? "</p><p class=\"meta\">" : "<figcaption>", qt ? "</p>" : "</figcaption></figure>");
    }
    out += fmt::format("<h3>Annotations ({})</h3>\n", t.annotations.size());
    if (!o.forQtTextDocument) {
        out += "<ol class=\"annotations\">\n";
    }
    for (const ReportAnnotation& ra : t.annotations) {
        writeAnnotation(out, t, ra, o);
    }
    if (!o.forQtTextDocument) {
        out += "</ol>\n";
    }
    writeFindings(out, t);
    out += numericsHtml(t);
    out += "</section>\n";
}

} // namespace

std::string HtmlReport::write(const Report& report, const Options& options) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    // No script, no remote resource: the report opens offline and cannot run anything.
    out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src "
           "'unsafe-inline'\">\n";
    out += fmt::format("<title>{} - {}</title>\n", h(report.title), h(report.reviewFile));
    if (!options.forQtTextDocument) {
        out += fmt::format("<style>{}</style>\n", css());
    }
    out += "</head>\n<body>\n";
    out += fmt::format("<h1>{}</h1>\n<p class=\"meta\">Review file <b>{}</b> &middot; rubric <b>{}</b> {} &middot; "
                       "generated {} &middot; {} task{}</p>\n",
                       h(report.title), h(report.reviewFile), h(report.rubricTitle), h(report.rubricVersion),
                       h(report.generatedAt), report.tasks.size(), report.tasks.size() == 1 ? "" : "s");
    if (report.team) {
        out += agreementHtml(*report.team);
    }
    for (const ReportTask& t : report.tasks) {
        writeTask(out, t, options);
    }
    out += "</body>\n</html>\n";
    return out;
}

} // namespace kl::core::report
