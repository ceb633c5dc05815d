#include "compat/CompatReport.h"

#include "output/TextReport.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace kl::core {

namespace {

std::string label(const std::string& file, const std::string& kernel) {
    return kernel.empty() ? file : file + ":" + kernel;
}

bool simulated(const CompatResult& r) {
    return r.status == CompatStatus::Simulated;
}

nlohmann::ordered_json errorJson(const std::optional<Error>& error) {
    if (!error) {
        return nullptr;
    }
    nlohmann::ordered_json e;
    e["code"] = errorCodeName(error->code);
    e["message"] = error->message;
    e["file"] = error->file;
    e["line"] = error->line;
    e["hint"] = error->hint;
    return e;
}

} // namespace

std::string CompatReport::groupDigits(std::uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return out;
}

std::string CompatReport::problem(const CompatResult& r) {
    if (r.status == CompatStatus::Skipped) {
        return r.skipReason;
    }
    if (!r.error) {
        return "";
    }
    const Error& e = *r.error;
    const std::string firstLine = e.message.substr(0, e.message.find('\n'));
    std::string where;
    if (!e.file.empty()) {
        where = e.line > 0 ? fmt::format("{}:{}: ", e.file, e.line) : e.file + ": ";
    }
    return fmt::format("{}{}: {}", where, errorCodeName(e.code), firstLine);
}

std::string CompatReport::table(const std::vector<CompatResult>& results) {
    using Row = std::array<std::string, 6>;
    std::vector<Row> rows = {{"FILE", "KERNEL", "STATUS", "INSTR", "TIME", "PROBLEM"}};
    for (const CompatResult& r : results) {
        rows.push_back({r.file, r.kernel.empty() ? "-" : r.kernel, compatStatusName(r.status),
                        simulated(r) ? groupDigits(r.instructions) : "-",
                        simulated(r) ? sim::formatDuration(r.simulatedPs) : "-", problem(r)});
    }
    std::array<std::size_t, 6> width{};
    for (const Row& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            width[c] = std::max(width[c], row[c].size());
        }
    }
    std::string out;
    for (const Row& row : rows) {
        std::string line = fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>{}}  {:>{}}  {}", row[0], width[0], row[1], width[1],
                                       row[2], width[2], row[3], width[3], row[4], width[4], row[5]);
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    return out;
}

std::string CompatReport::progressStart(std::size_t index, std::size_t total, const CompatJob& job) {
    return fmt::format("[{}/{}] {} ... ", index, total, label(job.file, job.kernel));
}

std::string CompatReport::outcome(const CompatResult& r) {
    if (simulated(r)) {
        return fmt::format("simulated, {} instr, {}", groupDigits(r.instructions), sim::formatDuration(r.simulatedPs));
    }
    return fmt::format("{}: {}", compatStatusName(r.status), problem(r));
}

std::string CompatReport::summaryLine(const CompatSummary& s) {
    std::string out = fmt::format("{} simulated", s.simulated);
    if (s.tracedOnly > 0) {
        out += fmt::format(", {} traced-only", s.tracedOnly);
    }
    return out + fmt::format(", {} failed, {} skipped", s.failed, s.skipped);
}

std::string CompatReport::json(const std::string& hardware, const std::vector<CompatResult>& results) {
    const CompatSummary s = CompatSummary::of(results);
    nlohmann::ordered_json doc;
    doc["hw"] = hardware;
    doc["summary"] = {{"total", s.total},
                      {"simulated", s.simulated},
                      {"traced_only", s.tracedOnly},
                      {"failed", s.failed},
                      {"skipped", s.skipped}};
    doc["results"] = nlohmann::ordered_json::array();
    for (const CompatResult& r : results) {
        nlohmann::ordered_json item;
        item["file"] = r.file;
        item["kernel"] = r.kernel;
        item["status"] = compatStatusName(r.status);
        item["hw"] = r.hardware;
        item["instructions"] = simulated(r) ? nlohmann::ordered_json(r.instructions) : nullptr;
        item["simulated_ns"] =
            simulated(r) ? nlohmann::ordered_json(static_cast<double>(r.simulatedPs) / 1000.0) : nullptr;
        item["error"] = errorJson(r.error);
        item["skip_reason"] = r.skipReason.empty() ? nullptr : nlohmann::ordered_json(r.skipReason);
        item["shape_source"] = r.shapeSource.empty() ? nullptr : nlohmann::ordered_json(r.shapeSource);
        item["seconds"] = std::round(r.seconds * 1000.0) / 1000.0;
        doc["results"].push_back(std::move(item));
    }
    return doc.dump(1) + "\n";
}

} // namespace kl::core
