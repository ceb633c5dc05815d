#include "rubric/Scorecard.h"

#include <fmt/format.h>

namespace kl::core {

namespace {

/// Maps a value of an N-level scale onto 1-5 so that areas mixing 3- and 5-level items average fairly.
double normalize(int value, int levels) {
    if (levels <= 1) {
        return 5.0;
    }
    return 1.0 + 4.0 * static_cast<double>(value - 1) / static_cast<double>(levels - 1);
}

const Score* findScore(std::span<const Score> scores, const std::string& itemId) {
    for (const Score& s : scores) {
        if (s.itemId == itemId) {
            return &s;
        }
    }
    return nullptr;
}

} // namespace

const char* toString(ScorecardResult result) {
    switch (result) {
    case ScorecardResult::Pass: return "pass";
    case ScorecardResult::Fail: return "fail";
    case ScorecardResult::Incomplete: return "incomplete";
    }
    return "incomplete";
}

Scorecard computeScorecard(const Rubric& rubric, std::span<const Score> scores,
                           std::span<const Annotation> annotations) {
    Scorecard card;
    bool failed = false;
    double overallSum = 0, overallWeight = 0;
    for (const RubricArea& area : rubric.areas) {
        AreaScore out{area.id, area.title, std::nullopt, {}};
        double sum = 0, weight = 0;
        for (const RubricItem& item : area.items) {
            ItemScore is{item.id, item.title, item.scale.kind, std::nullopt, std::nullopt, {}, 0};
            for (const Annotation& a : annotations) {
                is.annotationCount += a.rubricItem == item.id ? 1 : 0;
            }
            if (const Score* s = findScore(scores, item.id)) {
                is.value = s->value;
                is.meaning = item.scale.describe(s->value);
                if (item.scale.kind == ScaleKind::Levels) {
                    is.normalized = normalize(s->value, item.scale.maxValue());
                    sum += item.weight * *is.normalized;
                    weight += item.weight;
                } else if (s->value == 0) {
                    failed = true;
                    card.reasons.push_back(fmt::format("{} ({}) is scored fail", item.id, item.title));
                }
            } else {
                card.unscored.push_back(item.id);
            }
            out.items.push_back(std::move(is));
        }
        if (weight > 0) {
            out.score = sum / weight;
            overallSum += area.weight * *out.score;
            overallWeight += area.weight;
        }
        card.areas.push_back(std::move(out));
    }
    if (overallWeight > 0) {
        card.overall = overallSum / overallWeight;
    }
    for (const Annotation& a : annotations) {
        if (a.severity == Severity::Blocking && !a.resolved) {
            ++card.unresolvedBlocking;
        }
    }
    if (card.unresolvedBlocking > 0) {
        failed = true;
        card.reasons.push_back(fmt::format("{} blocking annotation(s) unresolved", card.unresolvedBlocking));
    }
    if (card.unscored.empty() && card.overall && *card.overall < rubric.passThreshold) {
        failed = true;
        card.reasons.push_back(fmt::format("overall score {:.2f} is below the pass threshold {:.2f}", *card.overall,
                                           rubric.passThreshold));
    }
    if (!card.unscored.empty()) {
        card.reasons.push_back(fmt::format("{} of {} items unscored", card.unscored.size(), rubric.itemCount()));
    }
    card.result =
        failed ? ScorecardResult::Fail : (card.unscored.empty() ? ScorecardResult::Pass : ScorecardResult::Incomplete);
    return card;
}

} // namespace kl::core
