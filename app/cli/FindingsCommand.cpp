// `kernellens-cli findings`: run the findings rules (core/findings) over a simulated kernel and list what they find.
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/TraceArguments.h"

#include "engine/Simulator.h"
#include "findings/FindingsEngine.h"
#include "findings/FindingsReport.h"
#include "findings/FindingsRun.h"
#include "findings/MigrationSource.h"
#include "findings/RuleRegistry.h"
#include "hw/HardwareChoice.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "ir/IrLoader.h"
#include "numerics/NumericsReader.h"
#include "report/TextEscape.h"
#include "run/RunPipeline.h"
#include "support/Try.h"
#include "task/TaskSpec.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>

namespace kl::app {

namespace {

constexpr const char* kFindingsUsage =
    R"(Usage: kernellens-cli findings (TASK_DIR | KERNEL.py [trace options] | --ir IR_FILE)
                               [--hw NAME|PROFILE.json] [--json OUT] [--rules RULES.json]
                               [--numerics NUMERICS.json]

Simulates the kernel and runs the findings rules over the run: what a Trainium expert would point out, each
with its figures, evidence (instructions, time ranges, NKI and CUDA lines), the rubric item and a suggested fix.
A task folder also gives the CUDA side to the migration rules. Exit status 0 whether or not there are findings,
1 when the kernel cannot be traced or simulated, 2 for a usage error. Rules and keys: docs/findings.md.

Options:
  --ir FILE                a Kernel IR file written by `kernellens-cli trace` (no tracing)
  --hw NAME|FILE           hardware profile: {profiles}, or a profile .json (default as for `simulate`)
  --json FILE              also write the findings as JSON; '-' for stdout (the list then goes to stderr)
  --rules FILE             a rules file to use instead of resources/rules/findings.json
  --numerics FILE          a numerics document (`kernellens-cli numerics --json`) of the same kernel, for the
                           semantics-differ rule
  trace options            --kernel, --arg, --scalar, --grid, --package-root, --timeout, --no-sandbox: as for
                           `simulate`

Rules: {rules}
)";

struct FindingsOptions {
    std::optional<std::string> ir;
    std::string hardware;
    std::optional<std::string> json;
    std::optional<std::string> rules;
    std::optional<std::string> numerics;
    std::vector<std::string> traceArgs;
};

Expected<FindingsOptions> splitOptions(const std::vector<std::string>& args) {
    auto line = parseCommandLine(args, {{"--ir", "--hw", "--json", "--rules", "--numerics"}});
    KL_TRY(line);
    return FindingsOptions{line->get("--ir"),    line->get("--hw").value_or(""), line->get("--json"),
                           line->get("--rules"), line->get("--numerics"),        std::move(line->positional)};
}

std::string usage() {
    return fmt::format(fmt::runtime(kFindingsUsage), fmt::arg("profiles", sim::bundledProfileList()),
                       fmt::arg("rules", fmt::join(core::findings::ruleIds(), ", ")));
}

Expected<sim::HardwareProfile> loadProfile(const std::string& spec) {
    auto path = sim::ProfileLocator::resolve(spec, resourceBases());
    KL_TRY(path);
    return sim::HardwareProfile::loadFile(*path);
}

/// The findings of one kernel, and what they are about.
struct Analysis {
    std::vector<core::findings::Finding> findings;
    std::string kernel;
    std::string hardware;
};

/// Exit code of a failure: 2 for a malformed command line, 1 for a kernel that does not trace or simulate.
int failureCode(const Error& e) {
    return e.code == ErrorCode::InvalidArgument ? 2 : 1;
}

Expected<Analysis> analyseIr(const core::findings::FindingsEngine& engine, const std::string& irFile,
                             const std::string& hardware, const core::NumericsResult* numerics) {
    auto ir = sim::IrLoader::loadFile(irFile);
    KL_TRY(ir);
    const sim::HardwareChoice choice = sim::chooseHardware(hardware, {}, sim::kernelApiOf(ir->api));
    auto profile = loadProfile(choice.spec);
    KL_TRY(profile);
    auto result = sim::Simulator::run(*ir, *profile);
    KL_TRY(result);
    return Analysis{engine.run(*ir, **result, *profile, nullptr, numerics), (*result)->kernelName,
                    (*result)->hardwareName};
}

Expected<Analysis> analyseTrace(const core::findings::FindingsEngine& engine, const FindingsOptions& o,
                                const core::NumericsResult* numerics) {
    auto parsed = parseTraceArguments(o.traceArgs, /*requireOutput=*/false);
    KL_TRY(parsed);
    if (!parsed->rest.empty()) {
        return makeError(ErrorCode::InvalidArgument, fmt::format("unknown option '{}'", parsed->rest.front()));
    }
    const core::TraceRequest& request = parsed->request;
    if (request.taskDir.empty() && request.kernelFile.empty()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to analyse: give a task folder, a kernel file or --ir");
    }
    auto run = core::traceAndSimulate(core::RunRequest{request, o.hardware});
    KL_TRY(run);
    if (!run->warnings.empty()) {
        std::fputs(run->warnings.c_str(), stderr);
    }
    std::optional<core::TaskSpec> task;
    if (!request.taskDir.empty()) {
        if (auto spec = core::loadTaskSpec(request.taskDir)) { // it traced, so it loads
            task = std::move(*spec);
        }
    }
    auto findings = core::findings::findingsForRun(engine, *run, task ? &*task : nullptr, numerics);
    KL_TRY(findings);
    return Analysis{std::move(*findings), run->result->kernelName, run->result->hardwareName};
}

/// The findings and their context with every piece of text that comes from a kernel, a task or a rules file (kernel
/// and file names, notes, titles, suggestions) made safe for a terminal, each on its own line: an escape sequence in
/// a kernel name must not reach the terminal, nor a newline in a file name start a line that looks like a finding.
void makeTerminalSafe(std::vector<core::findings::Finding>& findings, core::findings::FindingsContext& context) {
    auto safe = [](std::string& s) { s = core::report::terminalText(s); };
    safe(context.kernel);
    safe(context.hardware);
    for (std::string& rule : context.rules) {
        safe(rule);
    }
    for (core::findings::Finding& f : findings) {
        for (std::string* s : {&f.rule, &f.title, &f.rubricItem, &f.suggestion}) {
            safe(*s);
        }
        for (core::findings::Figure& g : f.figures) {
            safe(g.name);
            safe(g.unit);
        }
        for (core::findings::EvidenceItem& e : f.evidence) {
            safe(e.note);
            for (core::findings::SourceRange& l : e.lines) {
                safe(l.file);
            }
        }
    }
}

/// The bundled rules, or those of `--rules FILE`.
Expected<core::findings::FindingsEngine> loadEngine(const std::optional<std::string>& rulesFile) {
    if (!rulesFile) {
        return core::findings::FindingsEngine::createDefault();
    }
    auto file = core::findings::loadRulesFile(*rulesFile);
    KL_TRY(file);
    return core::findings::FindingsEngine::create(std::move(*file));
}

int runFindings(const FindingsOptions& o) {
    if (o.ir && !o.traceArgs.empty()) {
        return fail(Error{ErrorCode::InvalidArgument, "give either --ir IR_FILE or a task folder / kernel file"}, 2);
    }
    if (!o.hardware.empty()) { // a typo should not cost a trace
        if (auto profile = loadProfile(o.hardware); !profile) {
            return fail(profile.error(), profile.error().code == ErrorCode::NotFound ? 2 : 1);
        }
    }
    auto engine = loadEngine(o.rules);
    if (!engine) {
        return fail(engine.error(), o.rules ? 2 : 1);
    }
    std::optional<core::NumericsResult> numerics;
    if (o.numerics) { // read before tracing: a bad document should not cost a trace
        auto read = core::readNumericsFile(*o.numerics);
        if (!read) {
            return fail(read.error(), 2);
        }
        numerics = std::move(*read);
    }
    const core::NumericsResult* n = numerics ? &*numerics : nullptr;
    auto analysis = o.ir ? analyseIr(*engine, *o.ir, o.hardware, n) : analyseTrace(*engine, o, n);
    if (!analysis) {
        return fail(analysis.error(), failureCode(analysis.error()));
    }
    const auto& findings = analysis->findings;
    core::findings::FindingsContext context{analysis->kernel, analysis->hardware, {}};
    for (const auto& rule : engine->rules()) {
        if (const auto* s = engine->rulesFile().find(rule->id()); s != nullptr && s->enabled) {
            context.rules.emplace_back(rule->id());
        }
    }
    const bool jsonToStdout = o.json && *o.json == "-";
    auto shownFindings = findings;
    auto shownContext = context;
    makeTerminalSafe(shownFindings, shownContext);
    printText(jsonToStdout ? stderr : stdout, core::findings::findingsText(shownFindings, shownContext));
    if (o.json) {
        if (auto ok = writeText(*o.json, core::findings::findingsJson(findings, context), "the findings"); !ok) {
            return fail(ok.error(), 1);
        }
    }
    return 0;
}

} // namespace

int runFindingsCommand(const std::vector<std::string>& args) {
    return runParsed(args, usage(), splitOptions, runFindings);
}

} // namespace kl::app
