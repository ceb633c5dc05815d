// What-if re-simulation time per example: each example is traced once (core::traceAndSimulate on trn1), then
// its IR is re-simulated through core::simulate on a changed profile (doubled DMA bandwidth, written as a
// what-if profile JSON) and timed. Target: under 1 s each, so the what-if panel answers while the learner
// still looks at the field they changed. Prints one line per example; asserts nothing.
#include "run/RunPipeline.h"
#include "support/ResourcePaths.h"
#include "whatif/WhatIfRun.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <vector>

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    using Clock = std::chrono::steady_clock;
    auto base = kl::core::loadBaseProfile("trn1");
    if (!base) {
        fmt::print(stderr, "{}\n", kl::formatError(base.error()));
        return 1;
    }
    const kl::core::ProfileOverrides overrides{{"dma.engine_bandwidth", 2 * base->profile.dma.engineBytesPerNs},
                                               {"dma.core_bandwidth", 2 * base->profile.dma.coreBytesPerNs},
                                               {"hbm.bandwidth_per_core", 2 * base->profile.hbmBytesPerNs}};
    auto text = kl::core::writeWhatIfProfile(base->json, overrides, "trn1-whatif-bench");
    if (!text) {
        fmt::print(stderr, "{}\n", kl::formatError(text.error()));
        return 1;
    }
    const fs::path profilePath = fs::temp_directory_path() / "kl-whatif-bench-profile.json";
    std::ofstream(profilePath) << *text;

    std::vector<fs::path> tasks;
    for (int i = 1; i < argc; ++i) {
        tasks.push_back(kl::core::examplesDir() / argv[i]);
    }
    if (tasks.empty()) {
        for (const auto& entry : fs::directory_iterator(kl::core::examplesDir())) {
            if (fs::exists(entry.path() / "task.json")) {
                tasks.push_back(entry.path());
            }
        }
        std::sort(tasks.begin(), tasks.end());
    }
    fmt::print("{:<20} {:>12} {:>10} {:>14} {:>14} {:>12}\n", "example", "instructions", "trace s", "base total",
               "what-if total", "re-sim ms");
    double worst = 0;
    for (const fs::path& task : tasks) {
        kl::core::RunRequest request;
        request.trace.taskDir = task;
        request.hardware = "trn1";
        const auto t0 = Clock::now();
        auto outcome = kl::core::traceAndSimulate(request);
        const std::chrono::duration<double> traced = Clock::now() - t0;
        if (!outcome) {
            fmt::print("{:<20} failed: {}\n", task.filename().string(), kl::formatError(outcome.error()));
            continue;
        }
        const auto t1 = Clock::now();
        auto whatIf = kl::core::simulate(*outcome->ir, profilePath.string());
        const std::chrono::duration<double, std::milli> resim = Clock::now() - t1;
        if (!whatIf) {
            fmt::print("{:<20} what-if failed: {}\n", task.filename().string(), kl::formatError(whatIf.error()));
            continue;
        }
        worst = std::max(worst, resim.count());
        fmt::print("{:<20} {:>12} {:>10.1f} {:>11.1f} us {:>11.1f} us {:>12.1f}\n", task.filename().string(),
                   outcome->ir->instructions().size(), traced.count(),
                   static_cast<double>(outcome->result->summary.totalPs) / 1e6,
                   static_cast<double>((*whatIf)->summary.totalPs) / 1e6, resim.count());
    }
    fmt::print("slowest re-simulation: {:.1f} ms (target < 1000 ms)\n", worst);
    fs::remove(profilePath);
    return 0;
}
