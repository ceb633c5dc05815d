#include "batch/Triage.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace kl::core::batch {
namespace {

// Weights chosen so that each criterion dominates the next: a failed numerics run outweighs any number of
// findings, one blocking finding outweighs a handful of minor ones, and the roofline only breaks near-ties.
constexpr double kNumericsFailed = 1e6;
constexpr double kDidNotRun = 1e5;
constexpr double kBlocking = 1000, kMajor = 100, kMinor = 10, kNit = 1;

void addFindings(const nlohmann::json& figures, TriagedTask& t, std::vector<std::string>& why) {
    const auto severity = figures.value("by_severity", nlohmann::json::object());
    for (const auto& [name, weight] : {std::pair{"blocking", kBlocking}, std::pair{"major", kMajor},
                                       std::pair{"minor", kMinor}, std::pair{"nit", kNit}}) {
        const int n = severity.value(name, 0);
        t.score += weight * n;
        if (n > 0 && weight >= kMinor) {
            why.push_back(fmt::format("{} {}", n, name));
        }
    }
    const auto roofline = figures.value("roofline", nlohmann::json::object());
    if (roofline.contains("attained_pct")) {
        const double attained = std::clamp(roofline.value("attained_pct", 0.0), 0.0, 100.0);
        t.score += (100.0 - attained) / 100.0; // below 1: orders tasks with the same findings
        why.push_back(fmt::format("{:.0f} % of the roof", attained));
    }
}

} // namespace

std::vector<TriagedTask> triage(const std::vector<StepResult>& rows, const std::filesystem::path& root,
                                const std::string& statusFilter) {
    std::map<std::string, std::vector<const StepResult*>> byTask;
    for (const StepResult& r : rows) {
        byTask[r.task].push_back(&r);
    }
    std::vector<TriagedTask> out;
    for (const auto& [key, steps] : byTask) {
        TriagedTask t{key, root / key, 0, false, ""};
        std::vector<std::string> why;
        for (const StepResult* s : steps) {
            const bool notOk = s->status != "ok" && !(s->step == "numerics" && s->status == "skipped");
            t.failed = t.failed || notOk;
            if (s->step == "numerics" && s->status == "failed") {
                t.score += kNumericsFailed;
                why.push_back("numerics failed");
            } else if ((s->step == "trace" || s->step == "simulate") && s->status != "ok" && s->status != "skipped") {
                t.score += kDidNotRun;
                why.push_back(s->step + " " + s->status);
            } else if (s->step == "findings" && s->status == "ok") {
                addFindings(nlohmann::json::parse(s->figuresJson, nullptr, false), t, why);
            }
        }
        for (const std::string& w : why) {
            t.why += (t.why.empty() ? "" : ", ") + w;
        }
        if (statusFilter == "all" || (statusFilter == "failed") == t.failed) {
            out.push_back(std::move(t));
        }
    }
    std::ranges::stable_sort(out, [](const TriagedTask& a, const TriagedTask& b) { return a.score > b.score; });
    return out;
}

} // namespace kl::core::batch
