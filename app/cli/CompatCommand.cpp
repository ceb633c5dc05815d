// `kernellens-cli compat`: trace and simulate many kernels (a manifest, task folders, .py files, folders) and
// print which ones run.
#include "cli/CliSupport.h"
#include "cli/Commands.h"

#include "compat/CompatManifest.h"
#include "compat/CompatPlan.h"
#include "compat/CompatReport.h"
#include "compat/CompatRun.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "support/Try.h"
#include "trace/KernelListing.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>

namespace kl::app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kCompatUsage =
    R"(Usage: kernellens-cli compat PATH... [--manifest FILE] [--root DIR] [--hw H] [--json OUT]
                             [--timeout S] [--package-root DIR] [--no-sandbox]

Traces and simulates every kernel it is given and prints a table: file, kernel, status (simulated,
traced-only, failed, skipped), instructions, simulated time, and for a problem its file:line, code and
message. Progress goes to stderr, one line per kernel. See docs/compat.md.

Without --manifest each PATH is a task folder (runs as its task), a .py file (its kernels whose parameters
all have defaults run with none; the others are skipped: give a manifest) or a folder (walked for both).
With --manifest the manifest's entries run; PATHs, if given, keep the entries at or under them.

Options:
  --manifest FILE        entry points with their shapes and scalars (JSON, docs/compat.md)
  --root DIR             the folder the manifest's paths are relative to (default: the current folder)
  --hw NAME|FILE         hardware profile (default trn2); a manifest entry's "hw" wins
  --json OUT             also write the results as JSON ('-' for stdout; the table then goes to stderr)
  --timeout SECONDS      tracing limit per kernel (default 120)
  --package-root DIR     the folder package imports resolve from, for kernels without their own
  --no-sandbox           run the kernels even where the OS sandbox cannot be set up (docs/sandbox.md)

Exit status: 0 when every kernel tried simulated, 1 when any failed (or only traced), 2 for a usage error.
Skipped kernels do not fail the run.
)";

struct CompatOptions {
    core::CompatSettings settings;
    std::optional<std::string> manifest;
    std::optional<std::string> json;
    std::vector<std::string> paths;
};

Expected<int> parseSeconds(const std::string& v) {
    try {
        std::size_t used = 0;
        const int n = std::stoi(v, &used);
        if (used == v.size() && n > 0) {
            return n;
        }
    } catch (...) {
    }
    return makeError(ErrorCode::InvalidArgument, "--timeout needs a positive whole number of seconds");
}

Expected<CompatOptions> parseOptions(const std::vector<std::string>& args) {
    auto line = parseCommandLine(
        args, {{"--manifest", "--root", "--hw", "--json", "--timeout", "--package-root"}, {"--no-sandbox"}, true});
    KL_TRY(line);
    CompatOptions o{.manifest = line->get("--manifest"), .json = line->get("--json"), .paths = line->positional};
    o.settings.bases = resourceBases();
    o.settings.allowUnsandboxed = line->has("--no-sandbox");
    if (auto root = line->get("--root")) {
        o.settings.root = *root;
    }
    if (auto hardware = line->get("--hw")) {
        o.settings.hardware = *hardware;
    }
    if (auto packageRoot = line->get("--package-root")) {
        o.settings.packageRoot = *packageRoot;
    }
    if (auto timeout = line->get("--timeout")) {
        auto seconds = parseSeconds(*timeout);
        KL_TRY(seconds);
        o.settings.timeoutSeconds = *seconds;
    }
    std::error_code ec;
    if (!fs::is_directory(o.settings.root, ec)) {
        return makeError(ErrorCode::NotFound, "--root is not a folder", o.settings.root.string());
    }
    if (!o.manifest && o.paths.empty()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to run: give PATHs or --manifest FILE");
    }
    return o;
}

/// The kernels to try, from the manifest or the paths. Errors here are usage errors (exit 2).
Expected<std::vector<core::CompatJob>> plan(const CompatOptions& o) {
    if (o.manifest) {
        auto manifest = core::loadCompatManifest(*o.manifest);
        KL_TRY(manifest);
        return core::CompatPlan::fromManifest(*manifest, o.settings, o.paths);
    }
    const core::KernelLister lister = [](const core::TraceRequest& request) {
        std::fprintf(stderr, "listing the kernels in %s\n", request.kernelFile.string().c_str());
        return core::listKernels(request);
    };
    return core::CompatPlan::fromPaths(o.paths, o.settings, lister);
}

int runCompat(const CompatOptions& o) {
    // The default profile must exist before anything runs; an entry's own "hw" is checked when it runs.
    auto profilePath = sim::ProfileLocator::resolve(o.settings.hardware, o.settings.bases);
    if (!profilePath) {
        return fail(profilePath.error(), 2);
    }
    if (auto profile = sim::HardwareProfile::loadFile(*profilePath); !profile) {
        return fail(profile.error(), 2);
    }
    auto jobs = plan(o);
    if (!jobs) {
        return fail(jobs.error(), 2);
    }
    std::vector<core::CompatResult> results;
    results.reserve(jobs->size());
    for (std::size_t i = 0; i < jobs->size(); ++i) {
        const core::CompatJob& job = (*jobs)[i];
        std::fputs(core::CompatReport::progressStart(i + 1, jobs->size(), job).c_str(), stderr);
        std::fflush(stderr);
        results.push_back(core::runCompatJob(job, o.settings));
        std::fprintf(stderr, "%s\n", core::CompatReport::outcome(results.back()).c_str());
    }
    const bool jsonToStdout = o.json && *o.json == "-";
    std::FILE* text = jsonToStdout ? stderr : stdout;
    const core::CompatSummary summary = core::CompatSummary::of(results);
    std::fputs(core::CompatReport::table(results).c_str(), text);
    std::fprintf(text, "%s\n", core::CompatReport::summaryLine(summary).c_str());
    if (o.json) {
        if (auto ok = writeText(*o.json, core::CompatReport::json(o.settings.hardware, results)); !ok) {
            return fail(ok.error(), 1);
        }
    }
    return summary.exitCode();
}

} // namespace

int runCompatCommand(const std::vector<std::string>& args) {
    return runParsed(args, kCompatUsage, parseOptions, runCompat);
}

} // namespace kl::app
