// kl_fuzz: the deterministic mutation fuzzer for KernelLens's loaders (docs/fuzzing.md).
//
//   kl_fuzz FORMAT [--cases N] [--first N] [--seed S] [--case-seconds S] [--out DIR]
//   kl_fuzz FORMAT --replay FILE...
//   KL_FUZZ_SECONDS=600 kl_fuzz FORMAT      # a long run: as many cases as fit, no case limit
//
// FORMAT is ir, profile, task, rubric, lesson or review. Seeds come from tests/fuzz/corpus/FORMAT; case N of
// seed S is always the same input. Exit status 1 when a case crashed, hung or let an exception out (each is
// saved under --out, default ./kl-fuzz-failures/FORMAT), 2 for a usage error, else 0.
#include "FuzzHarness.h"
#include "FuzzTargets.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace kl::fuzz;

int usage() {
    std::fputs("usage: kl_fuzz FORMAT [--cases N] [--first N] [--seed S] [--case-seconds S] [--out DIR]\n"
               "       kl_fuzz FORMAT --replay FILE...\n"
               "FORMAT: ir, profile, task, rubric, lesson, review; KL_FUZZ_SECONDS=N runs for N seconds\n",
               stderr);
    return 2;
}

std::optional<std::uint64_t> number(const char* text) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    return end != text && *end == '\0' ? std::optional<std::uint64_t>(v) : std::nullopt;
}

int replay(const FormatRunner& runner, const std::vector<std::string>& files) {
    int failed = 0;
    for (const std::string& f : files) {
        std::FILE* in = std::fopen(f.c_str(), "rb");
        if (in == nullptr) {
            std::fprintf(stderr, "%s: cannot read\n", f.c_str());
            ++failed;
            continue;
        }
        std::string bytes;
        char buffer[65536];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, in)) > 0;) {
            bytes.append(buffer, n);
        }
        std::fclose(in);
        const std::string guarded = runGuarded(runner.target(), bytes);
        if (!guarded.empty()) {
            std::printf("%s: FAILED: %s\n", f.c_str(), guarded.c_str());
            ++failed;
            continue;
        }
        const auto error = runner.feed(bytes);
        std::printf("%s: %s\n", f.c_str(), error ? kl::formatError(*error).c_str() : "loaded");
    }
    return failed > 0 ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        return usage();
    }
    const Format* format = findFormat(argv[1]);
    if (format == nullptr) {
        return usage();
    }
    RunOptions options;
    options.extension = format->extension;
    options.failureDir = std::filesystem::path("kl-fuzz-failures") / format->name;
    std::vector<std::string> replayFiles;
    bool replaying = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (replaying) {
            replayFiles.push_back(a);
        } else if (a == "--replay") {
            replaying = true;
        } else if (a == "--out" && hasValue) {
            options.failureDir = argv[++i];
        } else if ((a == "--cases" || a == "--first" || a == "--seed" || a == "--case-seconds") && hasValue) {
            const auto v = number(argv[++i]);
            if (!v) {
                return usage();
            }
            if (a == "--cases") {
                options.cases = *v;
            } else if (a == "--first") {
                options.firstCase = *v;
            } else if (a == "--seed") {
                options.seed = *v;
            } else {
                options.caseSeconds = static_cast<unsigned>(std::max<std::uint64_t>(*v, 1));
            }
        } else {
            return usage();
        }
    }
    // A private scratch folder for the files a target writes (task.json, a review copy).
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / fmt::format("kl-fuzz-{}-{}", format->name, ::getpid());
    const FormatRunner runner(*format, scratch);
    int status = 0;
    if (replaying) {
        status = replay(runner, replayFiles);
    } else {
        std::vector<std::string> seeds;
        for (auto& [path, bytes] : readFiles("corpus", format->name)) {
            seeds.push_back(std::move(bytes));
        }
        if (seeds.empty()) {
            std::fprintf(stderr, "kl_fuzz: no seeds in tests/fuzz/corpus/%s\n", format->name);
            return 2;
        }
        if (const char* seconds = std::getenv("KL_FUZZ_SECONDS"); seconds != nullptr && std::atof(seconds) > 0) {
            options.seconds = std::atof(seconds);
            options.cases = UINT64_MAX - options.firstCase;
        }
        const auto started = std::chrono::steady_clock::now();
        const RunReport report = runFuzz(runner.target(), seeds, Mutator(format->json), options);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
        std::printf("kl_fuzz %s: %llu cases from %zu seeds (seed %llu, first case %llu) in %.1f s, %zu failure(s)\n",
                    format->name, static_cast<unsigned long long>(report.cases), seeds.size(),
                    static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.firstCase),
                    took.count(), report.failures.size());
        for (const Failure& f : report.failures) {
            std::printf("  case %llu: %s; input saved as %s; replay with: kl_fuzz %s --replay %s\n",
                        static_cast<unsigned long long>(f.caseIndex), f.what.c_str(), f.savedInput.c_str(),
                        format->name, f.savedInput.c_str());
        }
        status = report.failures.empty() ? 0 : 1;
    }
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    return status;
}
