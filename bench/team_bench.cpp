// Merge and agreement at the size of a real team review: 3 reviewers x 50 tasks, every rubric item scored,
// two annotations per task and reviewer. Prints the time of each step; asserts nothing (not a test).
#include "review/ReviewFile.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "team/AgreementReport.h"
#include "team/ReviewMerge.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <stdlib.h>

namespace {

using Clock = std::chrono::steady_clock;
namespace core = kl::core;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// A reviewer's file: every item scored with a deterministic pattern that agrees most of the time.
bool writeReviewer(const std::string& path, const std::string& who, int seed, int tasks, const std::string& rubric) {
    auto file = core::ReviewFile::create(path, {rubric, "nki-migration.json", who});
    if (!file) {
        return false;
    }
    for (int t = 0; t < tasks; ++t) {
        const std::string folder = "task-" + std::to_string(t);
        auto task = file->tasks().add(folder, folder, {{"kernel.py", "nki", "# " + folder + "\n"}});
        if (!task) {
            return false;
        }
        for (const core::RubricArea& area : file->rubric().areas) {
            for (const core::RubricItem& item : area.items) {
                const int span = item.scale.maxValue() - item.scale.minValue() + 1;
                const int value = item.scale.minValue() + ((t * 7 + (t % 5 == 0 ? seed : 0)) % span);
                if (!file->scores().set(task->id, item.id, value, who)) {
                    return false;
                }
            }
        }
        for (int k = 0; k < 2; ++k) {
            core::Annotation a;
            a.taskId = task->id;
            a.author = who;
            a.text = "note";
            a.anchor = core::Anchor::nkiLines(10 + k * 10 + seed, 14 + k * 10 + seed);
            if (!file->annotations().create(a)) {
                return false;
            }
        }
    }
    return true;
}

} // namespace

int main() {
    const int tasks = 50;
    std::string dir = (std::filesystem::temp_directory_path() / "kl-team-bench-XXXXXX").string();
    if (::mkdtemp(dir.data()) == nullptr) {
        return 1;
    }
    const std::string rubric = core::readTextFile(core::resourcesDir() / "rubrics" / "nki-migration.json").value_or("");
    std::vector<std::string> files;
    for (int r = 0; r < 3; ++r) {
        files.push_back(dir + "/r" + std::to_string(r) + ".klreview");
        if (!writeReviewer(files.back(), "reviewer-" + std::to_string(r), r, tasks, rubric)) {
            std::fprintf(stderr, "cannot write %s\n", files.back().c_str());
            return 1;
        }
    }
    auto t0 = Clock::now();
    auto merged = core::team::mergeReviews(files, dir + "/team.klreview");
    const double mergeMs = msSince(t0);
    if (!merged) {
        std::fprintf(stderr, "%s\n", kl::formatError(merged.error()).c_str());
        return 1;
    }
    t0 = Clock::now();
    auto team = core::ReviewFile::open(dir + "/team.klreview");
    auto report = team ? core::team::computeAgreement(*team) : std::unexpected(team.error());
    const double agreementMs = msSince(t0);
    if (!report) {
        return 1;
    }
    std::printf("3 reviewers x %d tasks: %zu reviewer scores, %zu annotations\n", tasks, merged->reviewerScores,
                merged->annotations);
    std::printf("merge      %8.1f ms\nagreement  %8.1f ms (%zu items, %zu disagreements)\ntotal      %8.1f ms\n",
                mergeMs, agreementMs, report->items.size(), report->disagreements.size(), mergeMs + agreementMs);
    std::filesystem::remove_all(dir);
    return 0;
}
