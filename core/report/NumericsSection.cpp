#include "report/NumericsSection.h"

#include "numerics/NumericsReader.h"
#include "numerics/NumericsTable.h"
#include "report/TextEscape.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace kl::core::report {
namespace {

using Json = nlohmann::json;
constexpr std::size_t kTopInstructions = 5;

std::string md(std::string_view text) {
    std::string out;
    for (char c : escapeMarkdown(text, false)) {
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string label(const std::string& key) {
    for (ComparisonKind kind : kAllComparisons) {
        if (comparisonKey(kind) == key) {
            return std::string(comparisonLabel(kind));
        }
    }
    return key;
}

std::string runLine(const ReportNumericsRun& r) {
    return fmt::format("kernel {}, inputs {}, reference {}, CUDA numerics {}, tolerance {}", r.kernel, r.inputs,
                       r.reference.empty() ? std::string("none") : r.reference,
                       r.cudaNumerics.empty() ? std::string("none") : r.cudaNumerics, r.tolerance);
}

std::string verdict(const ReportNumericsRun& r) {
    if (r.comparisons.empty()) {
        return "no comparison made";
    }
    const auto failed = std::ranges::count_if(r.comparisons, [](const auto& c) { return !c.figures.passed; });
    return failed == 0 ? fmt::format("all {} comparisons pass", r.comparisons.size())
                       : fmt::format("{} of {} comparisons FAIL", failed, r.comparisons.size());
}

/// A float for the JSON report: a number, or "nan"/"inf"/"-inf" as the numerics document writes them.
Json jsonNumber(double v) {
    return std::isfinite(v) ? Json(v) : Json(numericsNumber(v));
}

std::string heading(const ReportTask& t) {
    return fmt::format("Numerics ({} run{})", t.numerics.size(), t.numerics.size() == 1 ? "" : "s");
}

} // namespace

std::vector<ReportNumericsRun> reportNumericsRuns(const std::vector<NumericsRun>& runs) {
    std::vector<ReportNumericsRun> out;
    for (const NumericsRun& run : runs) {
        ReportNumericsRun r{run.id,
                            run.createdAt,
                            run.kernel,
                            fmt::format("{}, seed {}", run.inputsKind, run.seed),
                            run.reference,
                            run.cudaNumerics,
                            run.tolerance,
                            run.passed,
                            {},
                            {},
                            {}};
        auto doc = parseNumericsDocument(run.document);
        if (!doc) {
            r.problem = doc.error().message;
            out.push_back(std::move(r));
            continue;
        }
        for (const NumericsOutput& o : doc->outputs) {
            for (ComparisonKind kind : kAllComparisons) {
                if (const auto& c = o.comparison(kind)) {
                    ReportNumericsComparison row{o.tensor.name, o.tensor.dtype, std::string(comparisonKey(kind)), *c};
                    row.figures.worst.clear();
                    r.comparisons.push_back(std::move(row));
                }
            }
        }
        for (const NumericsInstruction& ins : doc->topErrorInstructions) {
            if (r.topInstructions.size() == kTopInstructions) {
                break;
            }
            r.topInstructions.push_back({ins.index, ins.op, ins.file, ins.line, ins.addedError});
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::string numericsMarkdown(const ReportTask& t) {
    if (t.numerics.empty()) {
        return {};
    }
    std::string out = fmt::format("### {}\n\n", heading(t));
    for (std::size_t i = 0; i < t.numerics.size(); ++i) {
        const ReportNumericsRun& r = t.numerics[i];
        out += fmt::format("Run {} ({}): {}. **{}**.\n\n", i + 1, md(r.createdAt), md(runLine(r)),
                           r.problem.empty() ? verdict(r) : "stored document unreadable: " + md(r.problem));
        if (!r.comparisons.empty()) {
            out += "| Output | Comparison | Max abs | Max rel | Max ULP | RMS | Mismatches | Tolerance | Result |\n"
                   "|---|---|---|---|---|---|---|---|---|\n";
            for (const ReportNumericsComparison& c : r.comparisons) {
                out += fmt::format("| {} ({}) | {} | {} | {} | {} | {} | {} ({} %) | rtol {}, atol {} | {} |\n",
                                   md(c.output), md(c.dtype), md(label(c.comparison)),
                                   numericsFigure(c.figures.maxAbsError), numericsFigure(c.figures.maxRelError),
                                   numericsFigure(c.figures.maxUlpError), numericsFigure(c.figures.rmsError),
                                   c.figures.mismatches, numericsFigure(c.figures.mismatchPct),
                                   numericsFigure(c.figures.rtol), numericsFigure(c.figures.atol),
                                   c.figures.passed ? "pass" : "**FAIL**");
            }
            out += "\n";
        }
        for (const ReportNumericsInstruction& ins : r.topInstructions) {
            out += fmt::format("- {}:{} {} (instruction {}) added {}\n", md(ins.file), ins.line, md(ins.op), ins.index,
                               numericsFigure(ins.addedError));
        }
        out += r.topInstructions.empty() ? "" : "\n";
    }
    return out;
}

std::string numericsHtml(const ReportTask& t) {
    if (t.numerics.empty()) {
        return {};
    }
    auto h = [](std::string_view s) { return escapeHtml(s); };
    std::string out = fmt::format("<h3>{}</h3>\n", heading(t));
    for (std::size_t i = 0; i < t.numerics.size(); ++i) {
        const ReportNumericsRun& r = t.numerics[i];
        out += fmt::format("<p class=\"meta\">Run {} ({}): {}. <b>{}</b>.</p>\n", i + 1, h(r.createdAt), h(runLine(r)),
                           r.problem.empty() ? verdict(r) : "stored document unreadable: " + h(r.problem));
        if (!r.comparisons.empty()) {
            out += "<table class=\"findings\" cellspacing=\"0\" cellpadding=\"4\">\n<tr><th>Output</th>"
                   "<th>Comparison</th><th>Max abs</th><th>Max rel</th><th>Max ULP</th><th>RMS</th><th>Mismatches</th>"
                   "<th>Tolerance</th><th>Result</th></tr>\n";
            for (const ReportNumericsComparison& c : r.comparisons) {
                out += fmt::format("<tr><td>{} ({})</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                                   "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{} ({} %)</td>"
                                   "<td>rtol {}, atol {}</td><td style=\"color:{}\"><b>{}</b></td></tr>\n",
                                   h(c.output), h(c.dtype), h(label(c.comparison)),
                                   numericsFigure(c.figures.maxAbsError), numericsFigure(c.figures.maxRelError),
                                   numericsFigure(c.figures.maxUlpError), numericsFigure(c.figures.rmsError),
                                   c.figures.mismatches, numericsFigure(c.figures.mismatchPct),
                                   numericsFigure(c.figures.rtol), numericsFigure(c.figures.atol),
                                   c.figures.passed ? "#1a7f37" : "#c62828", c.figures.passed ? "pass" : "FAIL");
            }
            out += "</table>\n";
        }
        if (!r.topInstructions.empty()) {
            out += "<p class=\"meta\">Instructions that added most rounding error:</p>\n<ul>\n";
            for (const ReportNumericsInstruction& ins : r.topInstructions) {
                out += fmt::format("<li>{}:{} <b>{}</b> (instruction {}) added {}</li>\n", h(ins.file), ins.line,
                                   h(ins.op), ins.index, numericsFigure(ins.addedError));
            }
            out += "</ul>\n";
        }
    }
    return out;
}

Json numericsReportJson(const ReportTask& t) {
    Json runs = Json::array();
    for (const ReportNumericsRun& r : t.numerics) {
        Json run = {{"id", r.id},
                    {"created_at", sanitizeUtf8(r.createdAt)},
                    {"kernel", sanitizeUtf8(r.kernel)},
                    {"inputs", sanitizeUtf8(r.inputs)},
                    {"reference", sanitizeUtf8(r.reference)},
                    {"cuda_numerics", sanitizeUtf8(r.cudaNumerics)},
                    {"tolerance", sanitizeUtf8(r.tolerance)},
                    {"passed", r.passed},
                    {"problem", sanitizeUtf8(r.problem)},
                    {"comparisons", Json::array()},
                    {"top_error_instructions", Json::array()}};
        for (const ReportNumericsComparison& c : r.comparisons) {
            run["comparisons"].push_back({{"output", sanitizeUtf8(c.output)},
                                          {"dtype", sanitizeUtf8(c.dtype)},
                                          {"comparison", c.comparison},
                                          {"max_abs_error", jsonNumber(c.figures.maxAbsError)},
                                          {"max_rel_error", jsonNumber(c.figures.maxRelError)},
                                          {"max_ulp_error", jsonNumber(c.figures.maxUlpError)},
                                          {"rms_error", jsonNumber(c.figures.rmsError)},
                                          {"mismatches", c.figures.mismatches},
                                          {"mismatch_pct", jsonNumber(c.figures.mismatchPct)},
                                          {"rtol", jsonNumber(c.figures.rtol)},
                                          {"atol", jsonNumber(c.figures.atol)},
                                          {"passed", c.figures.passed}});
        }
        for (const ReportNumericsInstruction& ins : r.topInstructions) {
            run["top_error_instructions"].push_back({{"index", ins.index},
                                                     {"op", sanitizeUtf8(ins.op)},
                                                     {"file", sanitizeUtf8(ins.file)},
                                                     {"line", ins.line},
                                                     {"added_error", jsonNumber(ins.addedError)}});
        }
        runs.push_back(std::move(run));
    }
    return runs;
}

} // namespace kl::core::report
