#include "batch/BatchSteps.h"

#include "findings/FindingsEngine.h"
#include "findings/FindingsRun.h"
#include "run/RunPipeline.h"
#include "task/TaskSpec.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace kl::core::batch {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t msSince(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

bool wanted(const StepOptions& o, std::string_view step) {
    return std::ranges::find(o.steps, step) != o.steps.end();
}

StepResult failed(std::string step, const Error& e, std::int64_t ms) {
    StepResult r;
    r.step = std::move(step);
    r.status = "failed";
    r.error = e.message + (e.hint.empty() ? "" : " (" + e.hint + ")");
    r.errorFile = e.file;
    r.errorLine = e.line;
    r.durationMs = ms;
    return r;
}

StepResult skipped(std::string step, std::string why) {
    StepResult r;
    r.step = std::move(step);
    r.status = "skipped";
    r.error = std::move(why);
    return r;
}

StepResult ok(std::string step, const nlohmann::json& figures, std::int64_t ms) {
    StepResult r;
    r.step = std::move(step);
    r.status = "ok";
    r.figuresJson = figures.dump();
    r.durationMs = ms;
    return r;
}

nlohmann::json simulateFigures(const RunOutcome& run) {
    const sim::SimSummary& s = run.result->summary;
    return {{"hardware", run.result->hardwareName},
            {"total_ns", static_cast<double>(s.totalPs) / 1000.0},
            {"instructions", s.instructionCount},
            {"mfu_pct", s.mfuPct},
            {"dma_bytes", s.dmaBytes},
            {"dma_exposed_ns", static_cast<double>(s.dmaExposedPs) / 1000.0},
            {"hbm_utilization_pct", s.hbmBandwidthUtilizationPct},
            {"sbuf_peak_bytes", s.sbufPeakBytes}};
}

nlohmann::json findingsFigures(const std::vector<findings::Finding>& all) {
    nlohmann::json bySeverity = nlohmann::json::object();
    nlohmann::json rules = nlohmann::json::array();
    nlohmann::json roofline = nlohmann::json::object();
    for (const findings::Finding& f : all) {
        const std::string severity(toString(f.severity));
        bySeverity[severity] = bySeverity.value(severity, 0) + 1;
        rules.push_back(f.rule);
        if (f.rule == "roofline") { // its figures place the kernel against the machine's limits
            for (const findings::Figure& fig : f.figures) {
                roofline[fig.name] = fig.value;
            }
        }
    }
    return {{"count", all.size()}, {"by_severity", bySeverity}, {"rules", rules}, {"roofline", roofline}};
}

} // namespace

Expected<std::vector<std::string>> parseSteps(const std::string& commaList) {
    std::vector<std::string> asked;
    std::size_t start = 0;
    while (start <= commaList.size()) {
        const std::size_t comma = std::min(commaList.find(',', start), commaList.size());
        std::string step = commaList.substr(start, comma - start);
        if (std::ranges::find(kSteps, step) == std::end(kSteps)) {
            return makeError(ErrorCode::InvalidArgument,
                             fmt::format("unknown step '{}'; the steps are trace, simulate, findings, numerics", step));
        }
        asked.push_back(std::move(step));
        start = comma + 1;
    }
    std::vector<std::string> ordered;
    for (const char* s : kSteps) {
        if (std::ranges::find(asked, s) != asked.end()) {
            ordered.emplace_back(s);
        }
    }
    return ordered;
}

std::vector<StepResult> runTaskSteps(const std::filesystem::path& folder, const StepOptions& o) {
    std::vector<StepResult> out;
    auto t0 = Clock::now();
    RunStage reached = RunStage::Tracing;
    TraceRequest trace;
    trace.taskDir = folder;
    trace.timeoutSeconds = o.traceTimeoutSeconds;
    trace.allowUnsandboxed = o.allowUnsandboxed;
    auto run = traceAndSimulate(RunRequest{trace, o.hardware}, {}, [&](RunStage s) {
        if (s == RunStage::LoadingIr) {
            if (wanted(o, "trace")) {
                out.push_back(ok("trace", nlohmann::json::object(), msSince(t0)));
            }
            t0 = Clock::now();
        }
        reached = s;
    });
    const bool traced = run || reached != RunStage::Tracing;
    if (!run) {
        if (!traced) {
            if (wanted(o, "trace")) {
                out.push_back(failed("trace", run.error(), msSince(t0)));
            }
        } else if (wanted(o, "simulate")) {
            out.push_back(failed("simulate", run.error(), msSince(t0)));
        }
        for (const char* later : {"simulate", "findings"}) {
            const bool recorded = std::ranges::any_of(out, [&](const StepResult& r) { return r.step == later; });
            if (wanted(o, later) && !recorded) {
                out.push_back(skipped(later, traced ? "the kernel did not simulate" : "the kernel did not trace"));
            }
        }
    } else {
        if (wanted(o, "trace") && out.empty()) {
            out.push_back(ok("trace", nlohmann::json::object(), 0));
        }
        if (!out.empty() && out.front().step == "trace") {
            out.front().figuresJson = nlohmann::json{{"instructions", run->result->summary.instructionCount}}.dump();
        }
        if (wanted(o, "simulate")) {
            out.push_back(ok("simulate", simulateFigures(*run), msSince(t0)));
        }
        if (wanted(o, "findings")) {
            t0 = Clock::now();
            auto spec = loadTaskSpec(folder);
            auto engine = findings::FindingsEngine::createDefault();
            auto found = engine ? findings::findingsForRun(*engine, *run, spec ? &*spec : nullptr)
                                : std::unexpected(engine.error());
            out.push_back(found ? ok("findings", findingsFigures(*found), msSince(t0))
                                : failed("findings", found.error(), msSince(t0)));
        }
    }
    if (wanted(o, "numerics")) {
        out.push_back(skipped("numerics", "value execution (numerics) is not available in this build"));
    }
    return out;
}

} // namespace kl::core::batch
