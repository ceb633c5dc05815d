#include "cli/ReviewTeamCommands.h"

#include "cli/CliSupport.h"
#include "review/ReviewFile.h"
#include "team/AgreementReport.h"
#include "team/ReviewMerge.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace kl::app::review {
namespace {

std::string figureText(const core::team::Figure& f) {
    return f.value ? fmt::format("{:6.3f}", *f.value) : std::string("     -");
}

void printItem(const core::team::ItemAgreement& a) {
    std::printf("  %-28s %-8s alpha %s  kappa %s %-6s  agree %s  tasks %zu  reviewers %zu\n", shown(a.item).c_str(),
                core::team::levelName(a.level), figureText(a.alpha).c_str(), figureText(a.kappa).c_str(),
                a.kappaMethod.c_str(), figureText(a.percentAgreement).c_str(), a.tasks, a.reviewers);
    for (const auto* f : {&a.alpha, &a.kappa}) {
        if (!f->value && !f->note.empty()) {
            std::printf("      (%s)\n", shown(f->note).c_str());
        }
    }
}

void printReport(const core::team::AgreementReport& r) {
    std::string names;
    for (const std::string& n : r.reviewers) {
        names += (names.empty() ? "" : ", ") + shown(n);
    }
    std::printf("reviewers (%zu): %s\n\nscores, per rubric item:\n", r.reviewers.size(), names.c_str());
    for (const auto& item : r.items) {
        printItem(item);
    }
    printItem(r.overall);
    std::printf("\nannotations, each reviewer against the others:\n");
    for (const auto& o : r.annotationOverlap) {
        std::printf("  %-20s %3zu annotations, %3zu confirmed (precision %s), found %zu of %zu (recall %s)\n",
                    shown(o.reviewer).c_str(), o.annotations, o.confirmed,
                    o.precision() < 0 ? "-" : fmt::format("{:.2f}", o.precision()).c_str(), o.found,
                    o.othersAnnotations, o.recall() < 0 ? "-" : fmt::format("{:.2f}", o.recall()).c_str());
    }
    std::printf("\ndisagreements (%zu, largest first):\n", r.disagreements.size());
    for (const auto& d : r.disagreements) {
        std::string scores;
        for (const auto& [who, v] : d.scores) {
            scores += fmt::format("{}{}={}", scores.empty() ? "" : "  ", shown(who), v);
        }
        std::printf("  task %lld %-24s %-26s %s%s\n", static_cast<long long>(d.taskId), shown(d.taskTitle).c_str(),
                    shown(d.item).c_str(), scores.c_str(),
                    d.agreed ? fmt::format("  -> agreed {}", *d.agreed).c_str() : "");
    }
}

} // namespace

int runMerge(const CommandLine& opts) {
    const auto output = opts.get("--output");
    if (!output || opts.positional.size() < 2) {
        return usageError("review merge", "give two or more review files and -o/--output TEAM.klreview");
    }
    auto summary = core::team::mergeReviews(opts.positional, *output);
    if (!summary) {
        return fail(summary.error());
    }
    std::string names;
    for (const std::string& n : summary->reviewers) {
        names += (names.empty() ? "" : ", ") + shown(n);
    }
    std::printf("merged %zu files into %s: %zu tasks, reviewers %s; %zu reviewer scores, %zu annotations, %zu "
                "replies; %zu duplicates skipped\n",
                opts.positional.size(), shown(*output).c_str(), summary->tasks, names.c_str(), summary->reviewerScores,
                summary->annotations, summary->replies, summary->duplicatesSkipped);
    return 0;
}

int runAgreement(core::ReviewFile& file, const CommandLine& opts) {
    auto report = core::team::computeAgreement(file);
    if (!report) {
        return fail(report.error());
    }
    if (auto out = opts.get("--json")) {
        if (auto written = writeText(*out, core::team::agreementJson(*report).dump(2) + "\n", "agreement JSON");
            !written) {
            return fail(written.error());
        }
    }
    if (report->reviewers.size() < 2) {
        std::printf("note: %s holds scores of %zu reviewer(s); merge reviews first (review merge)\n",
                    shown(file.path()).c_str(), report->reviewers.size());
    }
    printReport(*report);
    return 0;
}

int runAdjudicate(core::ReviewFile& file, const CommandLine& opts) {
    const auto task = parseInteger(opts.get("--task").value_or(""));
    const auto value = parseInteger(opts.get("--value").value_or(""));
    const auto item = opts.get("--item");
    const auto reason = opts.get("--reason");
    if (!task || !value || !item || !reason || *value < -1000 || *value > 1000) {
        return usageError("review adjudicate", "give --task ID --item ID --value N --reason TEXT");
    }
    const char* user = std::getenv("USER");
    const std::string adjudicator = opts.get("--adjudicator").value_or(user && *user ? user : "adjudicator");
    auto decided = file.team().adjudicate(*task, *item, static_cast<int>(*value), *reason, adjudicator);
    if (!decided) {
        return fail(decided.error());
    }
    std::printf("task %lld: %s agreed at %lld by %s\n", static_cast<long long>(*task), shown(*item).c_str(),
                static_cast<long long>(*value), shown(adjudicator).c_str());
    return 0;
}

} // namespace kl::app::review
