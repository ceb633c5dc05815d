#include "numerics/NumericsTable.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kl::core {

namespace {

struct Row {
    std::vector<std::string> cells;
};

std::string renderRows(const std::vector<Row>& rows) {
    std::vector<std::size_t> widths;
    for (const Row& row : rows) {
        widths.resize(std::max(widths.size(), row.cells.size()), 0);
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            widths[i] = std::max(widths[i], row.cells[i].size());
        }
    }
    std::string out;
    for (const Row& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            line += row.cells[i];
            if (i + 1 < row.cells.size()) {
                line += std::string(widths[i] - row.cells[i].size() + 2, ' ');
            }
        }
        out += line + "\n";
    }
    return out;
}

std::string mismatchCell(const NumericsComparison& c) {
    return fmt::format("{} ({}%)", c.mismatches, numericsFigure(c.mismatchPct));
}

std::string header(const NumericsResult& r, bool withTiming) {
    std::string text = fmt::format("Kernel {} ({})", r.kernel, r.kernelFile);
    if (withTiming) {
        text += fmt::format(": {} instructions executed on values in {:.1f} ms", r.instructions, r.valueMs);
    }
    text += "\n";
    std::string inputs = r.inputsKind;
    if (!r.inputsFile.empty()) {
        inputs += " " + r.inputsFile;
    }
    text += fmt::format("Inputs: {}, seed {}; reference: {}; CUDA numerics: {}\n", inputs, r.seed,
                        r.reference.empty() ? std::string("none") : r.reference,
                        r.cudaNumerics.empty() ? std::string("none") : r.cudaNumerics);
    text += "Tolerance: " + toleranceSummary(r);
    if (!r.toleranceSource.empty()) {
        text += " - " + r.toleranceSource;
    }
    return text + "\n\n";
}

std::string worstLines(const NumericsResult& r) {
    std::string text;
    for (const NumericsOutput& out : r.outputs) {
        for (ComparisonKind kind : kAllComparisons) {
            const auto& c = out.comparison(kind);
            if (!c || c->passed || c->worst.empty()) {
                continue;
            }
            text += fmt::format("Worst elements of {}, {}:\n", out.tensor.name, comparisonLabel(kind));
            for (const NumericsWorstElement& w : c->worst) {
                std::string index;
                for (std::int64_t i : w.index) {
                    index += (index.empty() ? "" : ", ") + std::to_string(i);
                }
                text += fmt::format("  [{}]  value {}  expected {}\n", index, numericsNumber(w.value),
                                    numericsNumber(w.expected));
            }
        }
    }
    return text.empty() ? text : "\n" + text;
}

} // namespace

std::string numericsFigure(double value) {
    if (!std::isfinite(value)) {
        return numericsNumber(value);
    }
    if (value == 0) {
        return "0";
    }
    return fmt::format("{:.3g}", value);
}

std::string renderNumericsTable(const NumericsResult& r, bool withTiming) {
    std::string text = header(r, withTiming);
    std::vector<Row> rows = {
        {{"output", "comparison", "max abs", "max rel", "max ULP", "RMS", "mismatches", "result", "tolerance"}}};
    for (const NumericsOutput& out : r.outputs) {
        for (ComparisonKind kind : kAllComparisons) {
            const auto& c = out.comparison(kind);
            if (!c) {
                continue;
            }
            rows.push_back({{out.tensor.name, std::string(comparisonLabel(kind)), numericsFigure(c->maxAbsError),
                             numericsFigure(c->maxRelError), numericsFigure(c->maxUlpError),
                             numericsFigure(c->rmsError), mismatchCell(*c), c->passed ? "pass" : "FAIL",
                             fmt::format("rtol {} atol {}", numericsFigure(c->rtol), numericsFigure(c->atol))}});
        }
    }
    if (rows.size() == 1) {
        text += "No comparison was made (no reference and no CUDA numerics policy).\n";
    } else {
        text += renderRows(rows);
    }
    if (!r.topErrorInstructions.empty()) {
        text += "\nTop-error instructions (rounding error each added):\n";
        std::vector<Row> top;
        for (const NumericsInstruction& ins : r.topErrorInstructions) {
            top.push_back({{fmt::format("  #{}", ins.index), ins.op, fmt::format("{}:{}", ins.file, ins.line),
                            numericsFigure(ins.addedError), ins.output.empty() ? "" : "-> " + ins.output}});
        }
        text += renderRows(top);
    }
    text += worstLines(r);
    for (const std::string& w : r.warnings) {
        text += "warning: " + w + "\n";
    }
    const int failed = r.failedCount();
    const int total = r.comparisonCount();
    text += failed == 0 ? fmt::format("\nResult: PASS ({} of {} comparisons within tolerance)\n", total, total)
                        : fmt::format("\nResult: FAIL ({} of {} comparisons outside tolerance)\n", failed, total);
    return text;
}

} // namespace kl::core
