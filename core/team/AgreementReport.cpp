#include "team/AgreementReport.h"

#include "review/ReviewFile.h"
#include "rubric/Rubric.h"
#include "support/Try.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <ranges>
#include <set>

namespace kl::core::team {
namespace {

using Key = std::pair<std::int64_t, std::string>; // task, item

/// Every reviewer's own scores, by (task, item) and reviewer.
struct ScoreTable {
    std::map<Key, std::map<std::string, int>> byUnit;
    std::vector<std::string> reviewers;
};

ScoreTable tabulate(const std::vector<ReviewerScore>& scores) {
    ScoreTable t;
    std::set<std::string> names;
    for (const ReviewerScore& s : scores) {
        t.byUnit[{s.taskId, s.itemId}][s.reviewer] = s.value;
        names.insert(s.reviewer);
    }
    t.reviewers.assign(names.begin(), names.end());
    return t;
}

Level levelOf(const RubricScale& scale) {
    return scale.kind == ScaleKind::PassFail ? Level::Nominal : Level::Ordinal;
}

/// One row per unit, one column per reviewer of the review (missing where that reviewer gave no score).
Ratings ratingsFor(const ScoreTable& t, const Rubric& rubric, const std::string* onlyItem) {
    Ratings r;
    for (const auto& [key, scores] : t.byUnit) {
        if (onlyItem != nullptr && key.second != *onlyItem) {
            continue;
        }
        const RubricItem* item = rubric.findItem(key.second);
        if (item == nullptr) {
            continue;
        }
        const double lo = item->scale.minValue();
        const double range = std::max(1, item->scale.maxValue() - item->scale.minValue());
        std::vector<std::optional<double>> row(t.reviewers.size());
        for (std::size_t i = 0; i < t.reviewers.size(); ++i) {
            if (auto it = scores.find(t.reviewers[i]); it != scores.end()) {
                // Overall mixes scales: each score is placed on 0..1 of its own item's scale.
                row[i] = onlyItem != nullptr ? it->second : (it->second - lo) / range;
            }
        }
        r.units.push_back(std::move(row));
    }
    return r;
}

ItemAgreement agreementOf(const Ratings& ratings, Level level, std::string name) {
    ItemAgreement a;
    a.item = std::move(name);
    a.level = level;
    a.tasks = ratings.units.size();
    std::set<std::size_t> raters;
    for (const auto& row : ratings.units) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (row[i]) {
                raters.insert(i);
            }
        }
    }
    a.reviewers = raters.size();
    a.alpha = krippendorffAlpha(ratings, level);
    a.percentAgreement = percentAgreement(ratings);
    // Kappa reads every column as a rater: keep only the reviewers who scored this item, or Fleiss would
    // find no unit complete because of someone who never scored it.
    Ratings active;
    for (const auto& row : ratings.units) {
        std::vector<std::optional<double>> r;
        for (std::size_t i : raters) {
            r.push_back(row[i]);
        }
        active.units.push_back(std::move(r));
    }
    if (a.reviewers == 2) {
        a.kappa = cohenKappa(active);
        a.kappaMethod = "cohen";
    } else if (a.reviewers > 2) {
        a.kappa = fleissKappa(active);
        a.kappaMethod = "fleiss";
    } else {
        a.kappa.note = "kappa needs two or more reviewers";
    }
    return a;
}

std::vector<Disagreement> disagreements(const ScoreTable& t, const Rubric& rubric, ReviewFile& file) {
    std::map<std::int64_t, std::string> titles;
    for (const Task& task : file.tasks().list().value_or(std::vector<Task>{})) {
        titles[task.id] = task.title;
    }
    std::vector<Disagreement> out;
    for (const auto& [key, scores] : t.byUnit) {
        const RubricItem* item = rubric.findItem(key.second);
        if (item == nullptr || scores.size() < 2) {
            continue;
        }
        auto [lo, hi] = std::ranges::minmax(scores | std::views::values);
        if (lo == hi) {
            continue;
        }
        Disagreement d{key.first, titles[key.first], key.second, {scores.begin(), scores.end()}, 0.0, {}};
        d.spread = static_cast<double>(hi - lo) / std::max(1, item->scale.maxValue() - item->scale.minValue());
        if (auto agreed = file.scores().find(key.first, key.second); agreed && *agreed) {
            d.agreed = (*agreed)->value;
        }
        out.push_back(std::move(d));
    }
    std::ranges::stable_sort(out, std::greater{}, &Disagreement::spread);
    return out;
}

nlohmann::json figureJson(const Figure& f) {
    return f.value ? nlohmann::json(*f.value) : nlohmann::json(nullptr);
}

nlohmann::json itemJson(const ItemAgreement& a) {
    nlohmann::json notes = nlohmann::json::object();
    for (const auto& [name, f] :
         {std::pair{"alpha", &a.alpha}, {"kappa", &a.kappa}, {"percent_agreement", &a.percentAgreement}}) {
        if (!f->note.empty()) {
            notes[name] = f->note;
        }
    }
    return {{"item", a.item},
            {"level", levelName(a.level)},
            {"alpha", figureJson(a.alpha)},
            {"kappa", figureJson(a.kappa)},
            {"kappa_method", a.kappaMethod},
            {"percent_agreement", figureJson(a.percentAgreement)},
            {"n_tasks", a.tasks},
            {"n_reviewers", a.reviewers},
            {"n_pairs", a.alpha.pairs},
            {"notes", notes}};
}

nlohmann::json ratio(double v) {
    return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

} // namespace

const char* levelName(Level level) {
    switch (level) {
    case Level::Nominal: return "nominal";
    case Level::Ordinal: return "ordinal";
    case Level::Interval: return "interval";
    }
    return "nominal";
}

Expected<AgreementReport> computeAgreement(ReviewFile& file) {
    auto scores = file.team().reviewerScores();
    KL_TRY(scores);
    auto notes = file.annotations().list();
    KL_TRY(notes);
    const Rubric& rubric = file.rubric();
    const ScoreTable table = tabulate(*scores);
    AgreementReport report;
    report.reviewers = table.reviewers;
    for (const RubricArea& area : rubric.areas) {
        for (const RubricItem& item : area.items) {
            const Ratings ratings = ratingsFor(table, rubric, &item.id);
            if (!ratings.units.empty()) {
                report.items.push_back(agreementOf(ratings, levelOf(item.scale), item.id));
            }
        }
    }
    report.overall = agreementOf(ratingsFor(table, rubric, nullptr), Level::Interval, "overall");
    report.annotationOverlap = annotationOverlap(*notes);
    report.disagreements = disagreements(table, rubric, file);
    return report;
}

nlohmann::json agreementJson(const AgreementReport& report) {
    nlohmann::json items = nlohmann::json::array();
    for (const ItemAgreement& a : report.items) {
        items.push_back(itemJson(a));
    }
    nlohmann::json overlap = nlohmann::json::array();
    for (const ReviewerOverlap& o : report.annotationOverlap) {
        overlap.push_back({{"reviewer", o.reviewer},
                           {"annotations", o.annotations},
                           {"confirmed_by_others", o.confirmed},
                           {"others_annotations", o.othersAnnotations},
                           {"found_of_others", o.found},
                           {"precision", ratio(o.precision())},
                           {"recall", ratio(o.recall())}});
    }
    nlohmann::json disputes = nlohmann::json::array();
    for (const Disagreement& d : report.disagreements) {
        nlohmann::json scores = nlohmann::json::object();
        for (const auto& [who, value] : d.scores) {
            scores[who] = value;
        }
        disputes.push_back({{"task_id", d.taskId},
                            {"task", d.taskTitle},
                            {"item", d.item},
                            {"scores", scores},
                            {"spread", d.spread},
                            {"agreed", d.agreed ? nlohmann::json(*d.agreed) : nlohmann::json(nullptr)}});
    }
    return {{"reviewers", report.reviewers},
            {"items", items},
            {"overall", itemJson(report.overall)},
            {"annotation_overlap", overlap},
            {"disagreements", disputes}};
}

} // namespace kl::core::team
