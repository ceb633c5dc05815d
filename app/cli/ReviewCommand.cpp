// `kernellens-cli review`: create and edit review files (.klreview) without the GUI.
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/ReviewTeamCommands.h"

#include "report/TextEscape.h"
#include "review/ReviewFile.h"
#include "rubric/RubricLoader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kl::app {

namespace {

using core::Annotation;
using core::ReviewFile;
using review::runAdjudicate;
using review::runAgreement;
using review::runMerge;

constexpr const char* kReviewUsage = R"(Usage: kernellens-cli review SUBCOMMAND FILE.klreview [options]

Create and edit review files: one SQLite file per review holding tasks, the rubric, scores and
annotations (docs/review-file.md). Every change is saved when the command returns.

Subcommands:
  new        Create a review file with a rubric
  add-task   Copy a task folder (task.json, NKI and CUDA sources) into the review
  annotate   Pin an annotation to a time range, an instruction or a line range
  score      Score a rubric item for a task
  list       Show tasks, scorecards and annotations (--json for pipelines)
  reply      Reply to an annotation
  resolve    Mark an annotation resolved (or open again with --reopen)
  status     Set a task's status: todo, in_progress, done
  merge      Merge several reviewers' reviews of the same tasks into one team review
  agreement  Agreement between the reviewers of a team review (alpha, kappa, annotation overlap)
  adjudicate Set the agreed grade of a disputed item, with the reason

Run `kernellens-cli review SUBCOMMAND --help` for a subcommand's options.
)";

const std::map<std::string, const char*, std::less<>> kHelp = {
    {"new", R"(Usage: kernellens-cli review new FILE.klreview [--rubric RUBRIC.json] [--reviewer NAME]

Creates a new review file. Never overwrites an existing file.
  --rubric FILE     rubric template (default: the bundled nki-migration.json)
  --reviewer NAME   first reviewer of the review
)"},
    {"add-task", R"(Usage: kernellens-cli review add-task FILE.klreview TASK_DIR [TASK_DIR...]

Copies each task folder (task.json and the files it names) into the review and prints the task id.
)"},
    {"annotate", R"(Usage: kernellens-cli review annotate FILE.klreview --task ID ANCHOR --text TEXT [options]

ANCHOR is exactly one of:
  --time T0:T1         simulated time range in nanoseconds, e.g. --time 1200:3400
  --instruction N      instruction id in the kernel IR
  --nki-lines A-B      line range of the NKI source (or a single line A)
  --cuda-lines A-B     line range of the CUDA source
Options:
  --severity S         blocking, major, minor (default), nit or praise
  --item ID            rubric item the annotation is evidence for
  --score N            score for that item suggested by this annotation
  --author NAME        default: the review's first reviewer, else $USER
Prints the new annotation's id.
)"},
    {"score", R"(Usage: kernellens-cli review score FILE.klreview --task ID --item ID --value N [--reviewer NAME]

Sets the score of a rubric item for a task: 1..N on a level scale, 1 (pass) or 0 (fail) on a pass/fail item.
)"},
    {"reply", R"(Usage: kernellens-cli review reply FILE.klreview --annotation ID --text TEXT [--author NAME]

Adds a reply to an annotation and prints the reply's id.
)"},
    {"resolve", R"(Usage: kernellens-cli review resolve FILE.klreview --annotation ID [--reopen]

Marks the annotation resolved, or open again with --reopen. An unresolved blocking annotation fails
its task's scorecard.
)"},
    {"status", R"(Usage: kernellens-cli review status FILE.klreview --task ID --set todo|in_progress|done

Sets the task's status in the review queue.
)"},
    {"merge", R"(Usage: kernellens-cli review merge A.klreview B.klreview [...] -o TEAM.klreview

Writes a new review holding every reviewer's scores (each kept with its reviewer, apart from the agreed
grade), annotations, replies and task progress. Tasks are matched by folder and file contents; a task whose
files differ, another rubric, or one reviewer's two different scores for an item stop the merge and nothing
is written. The inputs are only read. Merging a file twice adds nothing.
)"},
    {"agreement", R"(Usage: kernellens-cli review agreement TEAM.klreview [--json OUT]

Per rubric item and overall: Krippendorff's alpha (nominal for pass/fail items, ordinal for levels, interval
overall on scores scaled to 0..1), Cohen's kappa (two reviewers) or Fleiss' kappa (more), percent agreement
and the tasks and reviewers behind each figure; annotation overlap (precision and recall of each reviewer
against the others); the disagreements, largest first. JSON keys: docs/review-file.md, "Agreement".
)"},
    {"adjudicate", R"(Usage: kernellens-cli review adjudicate TEAM.klreview --task ID --item ID --value N
                                         --reason TEXT [--adjudicator NAME]

Sets the agreed grade of an item (the task's score), stored apart from the reviewers' own, with the reason.
)"},
    {"list", R"(Usage: kernellens-cli review list FILE.klreview [--task ID] [--severity S] [--item ID]
                                   [--author NAME] [--open] [--json]

Shows each task with its status, time spent, scorecard and annotations. Filters apply to annotations;
--open shows only unresolved ones. --json writes one JSON object for pipelines.
)"},
};

/// A usage error of `review SUB`: the message and a pointer to that subcommand's --help; returns kExitUsage.
int subcommandUsage(std::string_view sub, std::string_view message) {
    return usageError(fmt::format("review {}", sub), message);
}

/// "A:B" or "A-B" (or a single "A" when `single` is allowed) into two integers.
std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(std::string_view text, char sep, bool single) {
    const std::size_t pos = text.find(sep);
    if (pos == std::string_view::npos) {
        auto v = single ? parseInteger(text) : std::nullopt;
        return v ? std::optional(std::pair{*v, *v}) : std::nullopt;
    }
    auto a = parseInteger(text.substr(0, pos));
    auto b = parseInteger(text.substr(pos + 1));
    return a && b ? std::optional(std::pair{*a, *b}) : std::nullopt;
}

std::string defaultAuthor(ReviewFile& file) {
    if (auto reviewers = file.reviewers().list(); reviewers && !reviewers->empty()) {
        return reviewers->front().name;
    }
    const char* user = std::getenv("USER");
    return user && *user ? user : "reviewer";
}

int runNew(const CommandLine& opts) {
    std::string rubricPath = opts.get("--rubric").value_or(core::RubricLoader::defaultRubricPath());
    if (rubricPath.empty()) {
        return fail(Error{ErrorCode::NotFound,
                          "cannot find the bundled rubric nki-migration.json",
                          {},
                          0,
                          "pass --rubric FILE or set KL_RESOURCE_DIR"});
    }
    auto text = core::RubricLoader::readText(rubricPath);
    if (!text) {
        return fail(text.error());
    }
    const std::string source = std::filesystem::path(rubricPath).filename().string();
    auto file = ReviewFile::create(opts.positional[0], {*text, source, opts.get("--reviewer").value_or("")});
    if (!file) {
        return fail(file.error());
    }
    std::printf("created %s (rubric %s, %zu items)\n", shown(opts.positional[0]).c_str(),
                shown(file->rubric().id).c_str(), file->rubric().itemCount());
    return 0;
}

int runAddTask(ReviewFile& file, const CommandLine& opts) {
    if (opts.positional.size() < 2) {
        return subcommandUsage("add-task", "give at least one TASK_DIR");
    }
    for (std::size_t i = 1; i < opts.positional.size(); ++i) {
        auto task = file.tasks().addFromFolder(opts.positional[i]);
        if (!task) {
            return fail(task.error());
        }
        std::printf("task %lld: %s (%s)\n", static_cast<long long>(task->id), shown(task->folder).c_str(),
                    shown(task->title).c_str());
    }
    return 0;
}

std::optional<std::string> parseAnchor(const CommandLine& opts, core::Anchor& anchor) {
    int given = 0;
    if (auto t = opts.get("--time")) {
        ++given;
        auto r = parseRange(*t, ':', false);
        if (!r) {
            return "--time wants T0:T1 in nanoseconds, e.g. 1200:3400";
        }
        anchor = core::Anchor::timeRange(r->first, r->second);
    }
    if (auto n = opts.get("--instruction")) {
        ++given;
        auto v = parseInteger(*n);
        if (!v) {
            return "--instruction wants an instruction id (an integer)";
        }
        anchor = core::Anchor::instruction(*v);
    }
    for (const char* which : {"--nki-lines", "--cuda-lines"}) {
        if (auto l = opts.get(which)) {
            ++given;
            auto r = parseRange(*l, '-', true);
            if (!r || r->first > INT32_MAX || r->second > INT32_MAX) {
                return fmt::format("{} wants A-B (1-based lines) or a single line", which);
            }
            const int a = static_cast<int>(r->first), b = static_cast<int>(r->second);
            anchor =
                std::string_view(which) == "--nki-lines" ? core::Anchor::nkiLines(a, b) : core::Anchor::cudaLines(a, b);
        }
    }
    if (given != 1) {
        return "give exactly one anchor: --time, --instruction, --nki-lines or --cuda-lines";
    }
    return std::nullopt;
}

/// Why `id` cannot be an instruction of the task, judged against the task's latest stored run; nothing when it
/// can, or when no run is stored to judge by (then a note says it was not checked).
std::optional<std::string> checkInstructionId(ReviewFile& file, std::int64_t task, std::int64_t id) {
    if (id < 0) {
        return fmt::format("instruction {} cannot exist: ids start at 0", id);
    }
    const auto runs = file.runs().list(task).value_or(std::vector<core::SimRun>{});
    if (runs.empty()) {
        std::fprintf(stderr, "note: instruction %lld not checked: task %lld has no stored run yet\n",
                     static_cast<long long>(id), static_cast<long long>(task));
        return std::nullopt;
    }
    const auto json = nlohmann::json::parse(runs.back().summaryJson, nullptr, false);
    const nlohmann::json* summary = json.is_object() && json.contains("summary") ? &json["summary"] : &json;
    if (!summary->is_object() || !summary->contains("instruction_count")) {
        return std::nullopt;
    }
    const auto count = (*summary)["instruction_count"].get<std::int64_t>();
    if (id >= count) {
        return fmt::format("instruction {} is not in task {}'s last simulated run, which has {} instructions (ids 0 "
                           "to {})",
                           id, task, count, count - 1);
    }
    return std::nullopt;
}

int runAnnotate(ReviewFile& file, const CommandLine& opts) {
    Annotation a;
    auto task = opts.get("--task").and_then(parseInteger);
    if (!task) {
        return subcommandUsage("annotate", "--task ID is required (see `review list` for ids)");
    }
    a.taskId = *task;
    if (auto problem = parseAnchor(opts, a.anchor)) {
        return subcommandUsage("annotate", *problem);
    }
    auto severity = core::parseSeverity(opts.get("--severity").value_or("minor"));
    if (!severity) {
        return subcommandUsage("annotate", "--severity must be blocking, major, minor, nit or praise");
    }
    a.severity = *severity;
    auto text = opts.get("--text");
    if (!text) {
        return subcommandUsage("annotate", "--text is required");
    }
    a.text = *text;
    a.rubricItem = opts.get("--item").value_or("");
    if (auto score = opts.get("--score")) {
        auto v = parseInteger(*score);
        if (!v || *v < INT32_MIN || *v > INT32_MAX) {
            return subcommandUsage("annotate", "--score wants an integer");
        }
        a.score = static_cast<int>(*v);
    }
    if (a.anchor.kind == core::AnchorKind::Instruction) {
        if (auto problem = checkInstructionId(file, a.taskId, a.anchor.instructionId)) {
            return fail(Error{ErrorCode::InvalidArgument, *problem, file.path(), 0,
                              "instruction ids are the rows of the task's simulated run (Inspector, or "
                              "`kernellens-cli simulate --timeline`)"});
        }
    }
    a.author = opts.get("--author").value_or(defaultAuthor(file));
    auto saved = file.annotations().create(a);
    if (!saved) {
        return fail(saved.error());
    }
    std::printf("annotation %lld saved\n", static_cast<long long>(saved->id));
    return 0;
}

int runScore(ReviewFile& file, const CommandLine& opts) {
    auto task = opts.get("--task").and_then(parseInteger);
    auto item = opts.get("--item");
    auto value = opts.get("--value").and_then(parseInteger);
    if (!task || !item || !value || *value < INT32_MIN || *value > INT32_MAX) {
        return subcommandUsage("score", "--task ID, --item ID and --value N are required");
    }
    auto score =
        file.scores().set(*task, *item, static_cast<int>(*value), opts.get("--reviewer").value_or(defaultAuthor(file)));
    if (!score) {
        return fail(score.error());
    }
    const core::RubricItem* rubricItem = file.rubric().findItem(*item);
    std::printf("task %lld: %s = %s\n", static_cast<long long>(*task), shown(*item).c_str(),
                shown(rubricItem->scale.describe(score->value)).c_str());
    return 0;
}

nlohmann::json toJson(const Annotation& a) {
    nlohmann::json anchor{{"kind", core::toString(a.anchor.kind)}};
    switch (a.anchor.kind) {
    case core::AnchorKind::TimeRange: anchor["t0_ns"] = a.anchor.t0Ns, anchor["t1_ns"] = a.anchor.t1Ns; break;
    case core::AnchorKind::Instruction: anchor["instruction"] = a.anchor.instructionId; break;
    default: anchor["first_line"] = a.anchor.firstLine, anchor["last_line"] = a.anchor.lastLine; break;
    }
    nlohmann::json j{{"id", a.id},
                     {"anchor", anchor},
                     {"severity", core::toString(a.severity)},
                     {"text", a.text},
                     {"author", a.author},
                     {"resolved", a.resolved},
                     {"created_at", a.createdAt},
                     {"updated_at", a.updatedAt}};
    j["item"] = a.rubricItem.empty() ? nlohmann::json() : nlohmann::json(a.rubricItem);
    j["score"] = a.score ? nlohmann::json(*a.score) : nlohmann::json();
    return j;
}

nlohmann::json toJson(const core::Scorecard& card) {
    nlohmann::json areas = nlohmann::json::array();
    for (const core::AreaScore& area : card.areas) {
        nlohmann::json items = nlohmann::json::array();
        for (const core::ItemScore& item : area.items) {
            items.push_back({{"id", item.itemId},
                             {"title", item.title},
                             {"kind", item.kind == core::ScaleKind::PassFail ? "pass_fail" : "levels"},
                             {"value", item.value ? nlohmann::json(*item.value) : nlohmann::json()},
                             {"meaning", item.meaning},
                             {"annotations", item.annotationCount}});
        }
        areas.push_back({{"id", area.areaId},
                         {"score", area.score ? nlohmann::json(*area.score) : nlohmann::json()},
                         {"items", items}});
    }
    return {{"result", core::toString(card.result)},
            {"overall", card.overall ? nlohmann::json(*card.overall) : nlohmann::json()},
            {"reasons", card.reasons},
            {"unscored", card.unscored},
            {"areas", areas}};
}

std::string describeAnchor(const core::Anchor& an) {
    switch (an.kind) {
    case core::AnchorKind::TimeRange: return fmt::format("time {}:{} ns", an.t0Ns, an.t1Ns);
    case core::AnchorKind::Instruction: return fmt::format("instruction {}", an.instructionId);
    case core::AnchorKind::NkiLines: return fmt::format("NKI lines {}-{}", an.firstLine, an.lastLine);
    case core::AnchorKind::CudaLines: return fmt::format("CUDA lines {}-{}", an.firstLine, an.lastLine);
    }
    return {};
}

void printTask(const core::Task& task, const core::Scorecard& card, const std::vector<Annotation>& notes) {
    const std::string overall = card.overall ? fmt::format("{:.2f}", *card.overall) : "-";
    std::printf("task %lld  %s  [%s]  %s  %llds  scorecard: %s (overall %s)\n", static_cast<long long>(task.id),
                shown(task.folder).c_str(), std::string(core::toString(task.status)).c_str(), shown(task.title).c_str(),
                static_cast<long long>(task.secondsSpent), core::toString(card.result), overall.c_str());
    for (const std::string& reason : card.reasons) {
        std::printf("    - %s\n", shown(reason).c_str());
    }
    for (const Annotation& a : notes) {
        std::printf("  #%lld %-8s %-22s %s%s%s: %s\n", static_cast<long long>(a.id),
                    std::string(core::toString(a.severity)).c_str(), describeAnchor(a.anchor).c_str(),
                    a.rubricItem.empty() ? "-" : shown(a.rubricItem).c_str(), a.resolved ? " (resolved)" : "",
                    a.score ? fmt::format(" score {}", *a.score).c_str() : "", shown(a.text).c_str());
    }
}

int runList(ReviewFile& file, const CommandLine& opts) {
    core::AnnotationFilter filter;
    filter.rubricItem = opts.get("--item");
    filter.author = opts.get("--author");
    if (opts.has("--open")) {
        filter.resolved = false;
    }
    if (auto s = opts.get("--severity")) {
        filter.severity = core::parseSeverity(*s);
        if (!filter.severity) {
            return subcommandUsage("list", "--severity must be blocking, major, minor, nit or praise");
        }
    }
    std::optional<std::int64_t> onlyTask;
    if (auto t = opts.get("--task")) {
        onlyTask = parseInteger(*t);
        if (!onlyTask) {
            return subcommandUsage("list", "--task wants a task id");
        }
    }
    auto tasks = file.tasks().list();
    if (!tasks) {
        return fail(tasks.error());
    }
    if (onlyTask) {
        if (auto exists = file.tasks().get(*onlyTask); !exists) {
            return fail(exists.error());
        }
    }
    if (tasks->empty() && !opts.has("--json")) {
        std::printf("no tasks yet; add one with `kernellens-cli review add-task %s TASK_DIR`\n",
                    shown(file.path()).c_str());
    }
    nlohmann::json out{{"file", file.path()}, {"rubric", file.rubric().id}, {"tasks", nlohmann::json::array()}};
    for (const core::Task& task : *tasks) {
        if (onlyTask && task.id != *onlyTask) {
            continue;
        }
        filter.taskId = task.id;
        auto notes = file.annotations().list(filter);
        auto card = file.scorecard(task.id);
        if (!notes || !card) {
            return fail(!notes ? notes.error() : card.error());
        }
        if (!opts.has("--json")) {
            printTask(task, *card, *notes);
            continue;
        }
        nlohmann::json jt{{"id", task.id},
                          {"folder", task.folder},
                          {"title", task.title},
                          {"status", core::toString(task.status)},
                          {"seconds_spent", task.secondsSpent},
                          {"scorecard", toJson(*card)},
                          {"annotations", nlohmann::json::array()}};
        for (const Annotation& a : *notes) {
            jt["annotations"].push_back(toJson(a));
        }
        out["tasks"].push_back(std::move(jt));
    }
    if (opts.has("--json")) {
        std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    }
    return 0;
}

int runReply(ReviewFile& file, const CommandLine& opts) {
    auto id = opts.get("--annotation").and_then(parseInteger);
    auto text = opts.get("--text");
    if (!id || !text) {
        return subcommandUsage("reply", "--annotation ID and --text TEXT are required");
    }
    auto reply = file.annotations().addReply(*id, opts.get("--author").value_or(defaultAuthor(file)), *text);
    if (!reply) {
        return fail(reply.error());
    }
    std::printf("reply %lld saved\n", static_cast<long long>(reply->id));
    return 0;
}

int runResolve(ReviewFile& file, const CommandLine& opts) {
    auto id = opts.get("--annotation").and_then(parseInteger);
    if (!id) {
        return subcommandUsage("resolve", "--annotation ID is required");
    }
    auto annotation = file.annotations().get(*id);
    if (!annotation) {
        return fail(annotation.error());
    }
    annotation->resolved = !opts.has("--reopen");
    auto saved = file.annotations().update(*annotation);
    if (!saved) {
        return fail(saved.error());
    }
    std::printf("annotation %lld %s\n", static_cast<long long>(*id), saved->resolved ? "resolved" : "reopened");
    return 0;
}

int runStatus(ReviewFile& file, const CommandLine& opts) {
    auto task = opts.get("--task").and_then(parseInteger);
    auto status = opts.get("--set").and_then([](const std::string& s) { return core::parseTaskStatus(s); });
    if (!task || !status) {
        return subcommandUsage("status", "--task ID and --set todo|in_progress|done are required");
    }
    if (auto done = file.tasks().setStatus(*task, *status); !done) {
        return fail(done.error());
    }
    std::printf("task %lld: %s\n", static_cast<long long>(*task), std::string(core::toString(*status)).c_str());
    return 0;
}

/// A subcommand: its options (valued flags, then switches) and what runs it, either on the review file it opens
/// (`onFile`) or on its own (`alone`: new creates the file, merge reads several).
struct Subcommand {
    OptionSpec options;
    int (*onFile)(ReviewFile&, const CommandLine&) = nullptr;
    int (*alone)(const CommandLine&) = nullptr;
    bool readsOnly = false;      ///< allowed on a read-only review
    bool manyPositional = false; ///< takes more than the review file (add-task's folders, merge's inputs)
};

const std::map<std::string, Subcommand, std::less<>> kSubcommands = {
    {"new", {.options = {{"--rubric", "--reviewer"}}, .alone = runNew}},
    {"add-task", {.options = {}, .onFile = runAddTask, .manyPositional = true}},
    {"annotate",
     {.options = {{"--task", "--time", "--instruction", "--nki-lines", "--cuda-lines", "--severity", "--item",
                   "--score", "--text", "--author"}},
      .onFile = runAnnotate}},
    {"score", {.options = {{"--task", "--item", "--value", "--reviewer"}}, .onFile = runScore}},
    {"list",
     {.options = {{"--task", "--severity", "--item", "--author"}, {"--json", "--open"}},
      .onFile = runList,
      .readsOnly = true}},
    {"reply", {.options = {{"--annotation", "--text", "--author"}}, .onFile = runReply}},
    {"resolve", {.options = {{"--annotation"}, {"--reopen"}}, .onFile = runResolve}},
    {"status", {.options = {{"--task", "--set"}}, .onFile = runStatus}},
    {"merge", {.options = {{"--output"}}, .alone = runMerge, .manyPositional = true}},
    {"agreement", {.options = {{"--json"}}, .onFile = runAgreement, .readsOnly = true}},
    {"adjudicate",
     {.options = {{"--task", "--item", "--value", "--reason", "--adjudicator"}}, .onFile = runAdjudicate}},
};

} // namespace

int runReviewCommand(const std::vector<std::string>& args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kReviewUsage, args.empty() ? stderr : stdout);
        return args.empty() ? kExitUsage : 0;
    }
    const std::string& sub = args[0];
    auto found = kSubcommands.find(sub);
    if (found == kSubcommands.end()) {
        std::fprintf(stderr, "error: unknown review subcommand '%s'\n\n%s", shown(sub).c_str(), kReviewUsage);
        return kExitUsage;
    }
    const Subcommand& command = found->second;
    if (std::any_of(args.begin() + 1, args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })) {
        std::fputs(kHelp.find(sub)->second, stdout);
        return 0;
    }
    std::vector<std::string> spelled(args.begin() + 1, args.end());
    std::ranges::replace(spelled, std::string("-o"), std::string("--output")); // merge's short form
    OptionSpec spec = command.options;
    spec.closed = true;
    auto opts = parseCommandLine(spelled, spec);
    if (!opts) {
        return subcommandUsage(sub, opts.error().message);
    }
    if (opts->positional.empty()) {
        return subcommandUsage(sub, "give the review file (FILE.klreview)");
    }
    if (!command.manyPositional && opts->positional.size() > 1) {
        return subcommandUsage(sub, fmt::format("unexpected argument '{}'", opts->positional[1]));
    }
    if (command.alone) {
        return command.alone(*opts);
    }
    auto file = ReviewFile::open(opts->positional[0]);
    if (!file) {
        return fail(file.error());
    }
    if (file->readOnly()) {
        if (!command.readsOnly) {
            return fail(Error{ErrorCode::Io,
                              fmt::format("review file is read-only ({}): cannot {}", file->readOnlyReason(), sub),
                              file->path(), 0, "work on a copy in a writable folder"});
        }
        std::fprintf(stderr, "note: %s opened read-only: %s\n", shown(file->path()).c_str(),
                     file->readOnlyReason().c_str());
    }
    return command.onFile(*file, *opts);
}

} // namespace kl::app
