#include "findings/FindingsReport.h"

#include "output/TextReport.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>

namespace kl::core::findings {

namespace {

using Json = nlohmann::ordered_json;

double rounded(double v) {
    return std::isfinite(v) ? std::round(v * 1e4) / 1e4 : 0.0;
}

Json evidenceJson(const EvidenceItem& e) {
    Json instructions = Json::array();
    for (const InstructionRange& r : e.instructions) {
        instructions.push_back({r.first, r.last});
    }
    Json times = Json::array();
    for (const TimeRange& t : e.times) {
        times.push_back({t.startPs, t.endPs});
    }
    Json lines = Json::array();
    for (const SourceRange& l : e.lines) {
        lines.push_back({{"side", toString(l.side)}, {"file", l.file}, {"first", l.firstLine}, {"last", l.lastLine}});
    }
    return {{"note", e.note},
            {"instructions", instructions},
            {"instruction_count", e.instructionCount},
            {"time_ps", times},
            {"lines", lines}};
}

/// "83.9 %", "1.00 KiB", "12.5 us", "3.2e+04 FLOP/ns": a figure's value with its unit.
std::string valueText(double v, const std::string& unit) {
    if (unit == "B") {
        return sim::formatBytes(v);
    }
    if (unit == "ns") {
        return sim::formatDuration(static_cast<sim::TimePs>(std::llround(v * 1000.0)));
    }
    std::string number;
    if (v == std::floor(v) && std::fabs(v) < 1e12) {
        number = fmt::format("{}", static_cast<long long>(v)); // counts and whole numbers as written
    } else {
        number = std::fabs(v) >= 1e5 ? fmt::format("{:.3g}", v) : fmt::format("{:.4g}", v);
    }
    return unit.empty() ? number : fmt::format("{} {}", number, unit);
}

std::string rangesText(const EvidenceItem& e) {
    std::string out;
    for (std::size_t k = 0; k < e.instructions.size() && k < 4; ++k) {
        const InstructionRange& r = e.instructions[k];
        out += k > 0 ? ", " : "";
        out += r.first == r.last ? fmt::format("#{}", r.first) : fmt::format("#{}-#{}", r.first, r.last);
    }
    if (e.instructionCount > 0 && (e.instructions.size() > 4 || e.instructionCount > 1)) {
        out += fmt::format("{} ({} instructions)", e.instructions.size() > 4 ? ", ..." : "", e.instructionCount);
    }
    if (!e.times.empty()) {
        out += fmt::format("{}{} - {}", out.empty() ? "" : "  ", sim::formatDuration(e.times.front().startPs),
                           sim::formatDuration(e.times.back().endPs));
    }
    for (const SourceRange& l : e.lines) {
        if (l.side != SourceSide::Cuda) {
            continue;
        }
        out += fmt::format("{}{}:{}", out.empty() ? "" : "  ", l.file,
                           l.firstLine == l.lastLine ? fmt::format("{}", l.firstLine)
                                                     : fmt::format("{}-{}", l.firstLine, l.lastLine));
    }
    return out;
}

} // namespace

std::string findingsJson(const std::vector<Finding>& findings, const FindingsContext& context) {
    Json list = Json::array();
    for (const Finding& f : findings) {
        Json figures = Json::array();
        for (const Figure& g : f.figures) {
            Json one = {{"name", g.name}, {"value", rounded(g.value)}, {"unit", g.unit}};
            one["threshold"] = g.threshold ? Json(rounded(*g.threshold)) : Json(nullptr);
            figures.push_back(std::move(one));
        }
        Json evidence = Json::array();
        for (const EvidenceItem& e : f.evidence) {
            evidence.push_back(evidenceJson(e));
        }
        list.push_back({{"rule", f.rule},
                        {"title", f.title},
                        {"severity", toString(f.severity)},
                        {"rubric_item", f.rubricItem},
                        {"figures", figures},
                        {"evidence", evidence},
                        {"suggestion", f.suggestion}});
    }
    const Json doc = {{"schema_version", 1},
                      {"kernel", context.kernel},
                      {"hardware", context.hardware},
                      {"rules", context.rules},
                      {"findings", list}};
    return doc.dump(1) + "\n";
}

std::string findingsText(const std::vector<Finding>& findings, const FindingsContext& context) {
    std::array<int, 5> counts{};
    for (const Finding& f : findings) {
        ++counts[static_cast<std::size_t>(f.severity)];
    }
    std::string tally;
    for (std::size_t s = 0; s < counts.size(); ++s) {
        if (counts[s] > 0) {
            tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", counts[s], toString(static_cast<Severity>(s)));
        }
    }
    std::string out =
        fmt::format("Findings for {} on {}: {}{}\n", context.kernel.empty() ? "(unnamed)" : context.kernel,
                    context.hardware, findings.size(), tally.empty() ? "" : " (" + tally + ")");
    for (const Finding& f : findings) {
        out += fmt::format("\n{:<8} {}  {}  [{}]\n", toString(f.severity), f.rule, f.title, f.rubricItem);
        std::string figures;
        for (const Figure& g : f.figures) {
            figures += fmt::format("{}{} {}", figures.empty() ? "" : ", ", g.name, valueText(g.value, g.unit));
            if (g.threshold) {
                figures += fmt::format(" (threshold {})", valueText(*g.threshold, g.unit));
            }
        }
        out += fmt::format("         {}\n", figures);
        for (const EvidenceItem& e : f.evidence) {
            const std::string ranges = rangesText(e);
            out += fmt::format("         - {}{}\n", e.note, ranges.empty() ? "" : "\n           " + ranges);
        }
        out += fmt::format("         fix: {}\n", f.suggestion);
    }
    return out;
}

} // namespace kl::core::findings
