#include "report/ReportBuilder.h"

#include "team/AgreementReport.h"
#include "numerics/NumericsReader.h"
#include "report/NumericsSection.h"

#include "findings/FindingDecisions.h"
#include "findings/FindingsEngine.h"
#include "findings/FindingsRun.h"
#include "output/ResultJson.h"
#include "report/ReportText.h"
#include "review/ReviewFile.h"
#include "run/RunPipeline.h"
#include "support/Subprocess.h"
#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unordered_map>

namespace kl::core::report {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const TaskFile* fileWithRole(const std::vector<TaskFile>& files, std::string_view role) {
    auto it = std::find_if(files.begin(), files.end(), [&](const TaskFile& f) { return f.role == role; });
    return it == files.end() ? nullptr : &*it;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            if (start < text.size()) {
                lines.push_back(text.substr(start));
            }
            break;
        }
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

std::optional<Snippet> snippetOf(const TaskFile* file, std::string_view language, int first, int last, int maxLines) {
    if (file == nullptr || first < 1 || last < first) {
        return std::nullopt;
    }
    const std::vector<std::string> lines = splitLines(file->content);
    if (static_cast<std::size_t>(first) > lines.size()) {
        return std::nullopt;
    }
    last = std::min({last, static_cast<int>(lines.size()), first + maxLines - 1});
    Snippet s{std::string(language), file->path, first, {}};
    s.lines.assign(lines.begin() + (first - 1), lines.begin() + last);
    return s;
}

std::string formatBytes(double bytes) {
    if (bytes >= 1024.0 * 1024.0) {
        return fmt::format("{:.2f} MiB", bytes / (1024.0 * 1024.0));
    }
    if (bytes >= 1024.0) {
        return fmt::format("{:.1f} KiB", bytes / 1024.0);
    }
    return fmt::format("{:.0f} B", bytes);
}

std::string formatScalar(const Json& v) {
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_number_integer() || v.is_number_unsigned() || v.is_boolean()) {
        return v.dump();
    }
    if (v.is_number_float()) {
        return fmt::format("{:g}", v.get<double>());
    }
    return v.dump();
}

/// The task.json fields a report header shows.
void readTaskJson(const std::vector<TaskFile>& files, ReportTask& out) {
    const TaskFile* json = fileWithRole(files, "task_json");
    if (json == nullptr) {
        return;
    }
    const Json j = Json::parse(json->content, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) {
        return;
    }
    auto text = [&](const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; };
    out.kernel = text("kernel");
    out.cudaKernel = text("cuda_kernel");
    out.description = text("description");
    if (!text("hardware").empty()) {
        out.hardware = text("hardware");
    }
}

/// The "name" of a stored run's profile JSON, "" when it has none.
std::string profileNameOf(const std::string& profileJson) {
    const Json j = Json::parse(profileJson, nullptr, /*allow_exceptions=*/false);
    return j.is_object() && j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "";
}

InstructionInfo instructionAt(const sim::SimResult& r, std::uint32_t index) {
    const sim::TimelineData& tl = r.timeline;
    InstructionInfo info;
    info.index = index;
    info.irId = tl.irId(index);
    info.op = std::string(sim::opName(tl.op(index)));
    info.lane = r.laneLabel(tl.lane(index));
    info.startPs = tl.startPs(index);
    info.endPs = tl.endPs(index);
    info.line = tl.line(index);
    info.waitCause = std::string(sim::waitCauseName(tl.cause(index)));
    return info;
}

} // namespace

std::string summaryJsonOf(const sim::SimResult& result) {
    const Json all =
        Json::parse(sim::ResultJson::write(result, {.instructions = false, .series = false, .indent = -1}));
    return all.at("summary").dump();
}

std::vector<Metric> metricsFromSummaryJson(const std::string& text) {
    Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("summary") && j["summary"].is_object()) {
        j = j["summary"];
    }
    std::vector<Metric> out;
    if (!j.is_object()) {
        return out;
    }
    auto number = [&](const Json& v) { return v.is_number() ? std::optional(v.get<double>()) : std::nullopt; };
    auto pct = [](double v) { return fmt::format("{:.1f} %", v); };
    auto ns = [](double v) { return formatTime(static_cast<sim::TimePs>(v * 1000.0 + 0.5)); };
    struct Known {
        const char* key;
        const char* label;
        std::function<std::string(double)> format;
    };
    const std::vector<Known> known = {
        {"total_time_ns", "Total time", ns},
        {"instruction_count", "Instructions", [](double v) { return fmt::format("{:.0f}", v); }},
        {"mfu_pct", "MFU", pct},
        {"dma_active_pct", "DMA active", pct},
        {"dma_exposed_ns", "Exposed DMA time", ns},
        {"dma_bytes", "DMA bytes", formatBytes},
        {"hbm_bandwidth_utilization_pct", "HBM bandwidth utilization", pct},
        {"sbuf_peak_bytes", "SBUF peak", formatBytes},
        {"psum_peak_bytes", "PSUM peak", formatBytes},
        {"spill_bytes", "Spill traffic (SBUF/PSUM to HBM and back)", formatBytes},
        {"spill_transfers", "Spill transfers", [](double v) { return fmt::format("{:.0f}", v); }},
        {"flops", "FLOPs", [](double v) { return fmt::format("{:.3e}", v); }},
    };
    for (const Known& k : known) {
        if (auto v = j.contains(k.key) ? number(j[k.key]) : std::nullopt) {
            out.push_back({k.key, k.label, k.format(*v)});
        }
        if (std::string_view(k.key) == "instruction_count" && j.contains("engine_active_pct") &&
            j["engine_active_pct"].is_object()) {
            const std::pair<const char*, const char*> engines[] = {{"tensor", "TensorE active"},
                                                                   {"vector", "VectorE active"},
                                                                   {"scalar", "ScalarE active"},
                                                                   {"gpsimd", "GpSimdE active"}};
            for (const auto& [key, label] : engines) {
                if (auto v =
                        j["engine_active_pct"].contains(key) ? number(j["engine_active_pct"][key]) : std::nullopt) {
                    out.push_back({fmt::format("engine_active_pct.{}", key), label, pct(*v)});
                }
            }
        }
    }
    for (const auto& [key, value] : j.items()) { // nlohmann::json keeps keys sorted: deterministic
        const bool isKnown = key == "engine_active_pct" ||
                             std::any_of(known.begin(), known.end(), [&](const Known& k) { return key == k.key; });
        if (!isKnown && (value.is_primitive())) {
            out.push_back({key, key, formatScalar(value)});
        }
    }
    return out;
}

namespace {

/// Writes the stored files of `task` under `scratch`/task, checked to stay inside it; returns that folder.
Expected<fs::path> writeStoredTask(const Task& task, const std::vector<TaskFile>& files,
                                   const TemporaryDirectory& scratch) {
    if (!scratch.valid()) {
        return makeError(ErrorCode::Io, "cannot create a temporary folder to re-simulate the task");
    }
    const fs::path dir = scratch.path() / "task";
    for (const TaskFile& f : files) {
        const fs::path rel(f.path);
        const bool safe = !rel.empty() && rel.is_relative() &&
                          std::none_of(rel.begin(), rel.end(), [](const fs::path& p) { return p == ".."; });
        if (!safe) {
            return makeError(ErrorCode::Parse,
                             fmt::format("task {} stores a file with an unsafe path '{}'", task.id, f.path));
        }
        std::error_code ec;
        fs::create_directories((dir / rel).parent_path(), ec);
        std::ofstream out(dir / rel, std::ios::binary | std::ios::trunc);
        if (!out.write(f.content.data(), static_cast<std::streamsize>(f.content.size()))) {
            return makeError(ErrorCode::Io, "cannot write a stored task file for re-simulation", (dir / rel).string());
        }
    }
    return dir;
}

/// "exposed_dma_pct 83.9 % (threshold 25 %), tiles 12": every figure of a finding, for a report line.
std::string figuresText(const findings::Finding& f) {
    std::string out;
    for (const findings::Figure& g : f.figures) {
        const std::string unit = g.unit.empty() ? "" : " " + g.unit;
        out += fmt::format("{}{} {:.4g}{}", out.empty() ? "" : ", ", g.name, g.value, unit);
        if (g.threshold) {
            out += fmt::format(" (threshold {:.4g}{})", *g.threshold, unit);
        }
    }
    return out;
}

/// The findings of a task that are not among its annotations: open ones in the engine's order (most severe
/// first), then dismissed ones with their reason.
std::vector<ReportFinding> unacceptedFindings(const std::vector<findings::Finding>& all,
                                              const std::vector<Annotation>& annotations,
                                              const std::vector<FindingDismissal>& dismissals, int& accepted) {
    const auto decisions = findings::decisionsFor(all, annotations, dismissals);
    std::vector<ReportFinding> open;
    std::vector<ReportFinding> dismissed;
    accepted = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const findings::Finding& f = all[i];
        const findings::FindingDecision& d = decisions[i];
        if (d.acceptedAs) {
            ++accepted;
            continue;
        }
        ReportFinding r{d.key, f.severity, f.rule, f.title, f.rubricItem, figuresText(f), f.suggestion, false, {}, {}};
        if (d.dismissal) {
            r.dismissed = true;
            r.dismissalReason = d.dismissal->reason;
            r.dismissedBy = d.dismissal->author;
            dismissed.push_back(std::move(r));
        } else {
            open.push_back(std::move(r));
        }
    }
    open.insert(open.end(), std::make_move_iterator(dismissed.begin()), std::make_move_iterator(dismissed.end()));
    return open;
}

} // namespace

namespace {

/// A traced and simulated stored task, with its spec (the findings' CUDA side) and the scratch folder the spec's
/// paths point into: the findings read the CUDA source after the run, so the folder lives as long as the run.
struct StoredRun {
    RunOutcome outcome;
    TaskSpec spec;
    std::shared_ptr<const TemporaryDirectory> scratch;
};

Expected<StoredRun> runStoredTask(const Task& task, const std::vector<TaskFile>& files) {
    auto scratch = std::make_shared<TemporaryDirectory>();
    auto dir = writeStoredTask(task, files, *scratch);
    KL_TRY(dir);
    auto spec = loadTaskSpec(*dir);
    KL_TRY(spec);
    RunRequest request; // no hardware: the task's, else the default for the kernel's NKI API
    request.trace.taskDir = *dir;
    auto outcome = traceAndSimulate(request);
    KL_TRY(outcome);
    return StoredRun{std::move(*outcome), std::move(*spec), std::move(scratch)};
}

} // namespace

Expected<std::shared_ptr<const sim::SimResult>> simulateStoredTask(const Task& task,
                                                                   const std::vector<TaskFile>& files) {
    auto run = runStoredTask(task, files);
    KL_TRY(run);
    return run->outcome.result;
}

StoredTaskCallbacks storedTaskCallbacks(std::function<void(const Task&)> onTrace) {
    struct Cache {
        std::int64_t taskId = -1;
        std::optional<Expected<StoredRun>> run;
    };
    auto cache = std::make_shared<Cache>();
    auto runOf = [cache, onTrace = std::move(onTrace)](
                     const Task& task, const std::vector<TaskFile>& files) -> const Expected<StoredRun>& {
        if (cache->taskId != task.id || !cache->run) {
            if (onTrace) {
                onTrace(task);
            }
            cache->run = runStoredTask(task, files);
            cache->taskId = task.id;
        }
        return *cache->run;
    };
    StoredTaskCallbacks callbacks;
    callbacks.simulate =
        [runOf](const Task& task,
                const std::vector<TaskFile>& files) -> Expected<std::shared_ptr<const sim::SimResult>> {
        const auto& run = runOf(task, files);
        KL_TRY(run);
        return run->outcome.result;
    };
    callbacks.findings = [runOf](const Task& task, const std::vector<TaskFile>& files,
                                 const NumericsResult* numerics) -> Expected<std::vector<findings::Finding>> {
        const auto& run = runOf(task, files);
        KL_TRY(run);
        auto engine = findings::FindingsEngine::createDefault();
        KL_TRY(engine);
        return findings::findingsForRun(*engine, run->outcome, &run->spec, numerics);
    };
    return callbacks;
}

Report ReportBuilder::header() const {
    Report report;
    const Rubric& rubric = m_file.rubric();
    report.rubricId = rubric.id;
    report.rubricTitle = rubric.title;
    report.rubricVersion = rubric.version;
    report.title = "Review report";
    report.reviewFile = fs::path(m_file.path()).filename().string();
    report.generatedAt = m_options.generatedAt;
    return report;
}

Expected<std::vector<Task>> ReportBuilder::selectedTasks() {
    if (m_options.taskId) {
        auto task = m_file.tasks().get(*m_options.taskId);
        KL_TRY(task);
        return std::vector<Task>{*task};
    }
    auto tasks = m_file.tasks().list();
    if (tasks) {
        std::stable_sort(tasks->begin(), tasks->end(),
                         [](const Task& a, const Task& b) { return a.position < b.position; });
    }
    return tasks;
}

Expected<ReportTask> ReportBuilder::buildTask(const Task& task) {
    ReportTask out;
    out.task = task;
    auto files = m_file.tasks().files(task.id);
    auto runs = m_file.runs().list(task.id);
    auto card = m_file.scorecard(task.id);
    auto annotations = m_file.annotations().list({.taskId = task.id});
    KL_TRY(files);
    KL_TRY(runs);
    KL_TRY(card);
    KL_TRY(annotations);
    readTaskJson(*files, out);
    out.scorecard = std::move(*card);
    auto numerics = m_file.numericsRuns().list(task.id);
    KL_TRY(numerics);
    out.numerics = reportNumericsRuns(*numerics);
    if (!runs->empty()) {
        const SimRun& latest = runs->back();
        out.metrics = metricsFromSummaryJson(latest.summaryJson);
        out.metricsSource = fmt::format("stored run '{}' ({})", latest.label, latest.createdAt);
    }
    const bool needsRun = m_options.wantRun || out.metrics.empty() ||
                          std::any_of(annotations->begin(), annotations->end(),
                                      [](const Annotation& a) { return a.anchor.kind == AnchorKind::Instruction; });
    if (needsRun && m_options.simulate) {
        auto result = m_options.simulate(task, *files);
        if (!result && result.error().code == ErrorCode::Cancelled) {
            return std::unexpected(result.error());
        }
        if (!result) {
            // A kernel that no longer traces must not cost the reviewer the rest of the report.
            out.warnings.push_back(
                fmt::format("task {}: re-simulation failed: {}", task.id, formatError(result.error())));
        } else {
            out.result = *result;
        }
        if (out.result && out.metrics.empty()) {
            out.metrics = metricsFromSummaryJson(summaryJsonOf(*out.result));
            out.metricsSource = "re-simulation of the sources stored in the review";
        }
    }
    if (out.hardware.empty()) {
        // task.json names no profile: say which one the kernel's NKI API picked, as the run behind the report shows.
        out.hardware = out.result      ? out.result->hardwareName
                       : runs->empty() ? std::string{}
                                       : profileNameOf(runs->back().profileJson);
        if (out.hardware.empty()) {
            out.hardware = "default for the kernel's NKI API";
        }
    }
    std::unordered_map<std::int64_t, std::uint32_t> byIrId;
    if (out.result) {
        const auto& tl = out.result->timeline;
        for (std::uint32_t i = 0; i < tl.size(); ++i) {
            byIrId.emplace(tl.irId(i), i);
        }
    }
    const TaskFile* nki = fileWithRole(*files, "nki");
    const TaskFile* cuda = fileWithRole(*files, "cuda");
    const int maxLines = m_options.maxSnippetLines;
    int number = 0;
    for (Annotation& a : *annotations) {
        ReportAnnotation ra;
        ra.number = ++number;
        auto replies = m_file.annotations().replies(a.id);
        KL_TRY(replies);
        ra.replies = std::move(*replies);
        const Anchor& anchor = a.anchor;
        std::optional<Snippet> snippet;
        if (anchor.kind == AnchorKind::Instruction) {
            if (auto it = byIrId.find(anchor.instructionId); it != byIrId.end()) {
                ra.instruction = instructionAt(*out.result, it->second);
                const int line = static_cast<int>(ra.instruction->line);
                snippet = snippetOf(nki, "nki", line, line, maxLines);
            }
        } else if (anchor.kind == AnchorKind::NkiLines) {
            snippet = snippetOf(nki, "nki", anchor.firstLine, anchor.lastLine, maxLines);
        } else if (anchor.kind == AnchorKind::CudaLines) {
            snippet = snippetOf(cuda, "cuda", anchor.firstLine, anchor.lastLine, maxLines);
        }
        if (snippet) {
            ra.snippets.push_back(std::move(*snippet));
        }
        ra.annotation = std::move(a);
        out.annotations.push_back(std::move(ra));
    }
    KL_TRY(addFindings(task, *files, out));
    return out;
}

Expected<void> ReportBuilder::addFindings(const Task& task, const std::vector<TaskFile>& files, ReportTask& out) {
    if (!m_options.findings) {
        return {};
    }
    // The task's latest numerics run, for the semantics-differ rule.
    auto latest = m_file.numericsRuns().latest(task.id);
    KL_TRY(latest);
    std::optional<NumericsResult> numerics;
    if (*latest) {
        if (auto parsed = parseNumericsDocument((*latest)->document); parsed) {
            numerics = std::move(*parsed);
        }
    }
    auto found = m_options.findings(task, files, numerics ? &*numerics : nullptr);
    if (!found) {
        if (found.error().code == ErrorCode::Cancelled) {
            return std::unexpected(found.error());
        }
        out.warnings.push_back(
            fmt::format("task {}: findings could not be computed: {}", task.id, formatError(found.error())));
        return {};
    }
    auto dismissals = m_file.findingDismissals().list(task.id);
    KL_TRY(dismissals);
    std::vector<Annotation> annotations;
    for (const ReportAnnotation& ra : out.annotations) {
        annotations.push_back(ra.annotation);
    }
    out.findingsRan = true;
    out.findings = unacceptedFindings(*found, annotations, *dismissals, out.acceptedFindings);
    return {};
}

Expected<Report> ReportBuilder::build() {
    Report report = header();
    auto tasks = selectedTasks();
    KL_TRY(tasks);
    for (const Task& t : *tasks) {
        auto built = buildTask(t);
        KL_TRY(built);
        report.tasks.push_back(std::move(*built));
    }
    if (m_file.team().isTeamReview().value_or(false)) {
        auto agreement = team::computeAgreement(m_file);
        auto reasons = m_file.team().adjudications();
        KL_TRY(agreement);
        KL_TRY(reasons);
        TeamSection section{std::move(*agreement), std::move(*reasons), {}};
        for (const Task& t : *tasks) {
            section.taskTitles[t.id] = t.title;
        }
        report.team = std::move(section);
    }
    return report;
}

} // namespace kl::core::report
