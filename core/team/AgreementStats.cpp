#include "team/AgreementStats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace kl::core::team {

namespace {

using Matrix = std::vector<std::vector<double>>;
using Values = std::vector<double>; ///< the present values of one unit, any order

std::size_t raterCount(const Ratings& ratings) {
    std::size_t widest = 0;
    for (const auto& row : ratings.units) {
        widest = std::max(widest, row.size());
    }
    return widest;
}

/// Note naming the first non-finite rating, or empty when all are finite.
std::string nonFiniteNote(const Ratings& ratings) {
    for (std::size_t u = 0; u < ratings.units.size(); ++u) {
        const auto& row = ratings.units[u];
        for (std::size_t r = 0; r < row.size(); ++r) {
            if (row[r] && !std::isfinite(*row[r])) {
                return "non-finite rating at unit " + std::to_string(u) + ", rater " + std::to_string(r);
            }
        }
    }
    return {};
}

/// Why nothing could be paired: the most basic reason first, so the note is actionable.
std::string noPairsNote(const Ratings& ratings) {
    if (ratings.units.empty()) {
        return "no units";
    }
    if (raterCount(ratings) < 2) {
        return "only one rater";
    }
    return "no unit has values from two or more raters";
}

/// Keeps earlier notes (e.g. what was left out) when a later reason is added.
void addNote(Figure& figure, const std::string& note) {
    figure.note = figure.note.empty() ? note : figure.note + "; " + note;
}

Figure undefined(std::string note) {
    Figure figure;
    figure.note = std::move(note);
    return figure;
}

Values presentValues(const std::vector<std::optional<double>>& row) {
    Values values;
    for (const auto& cell : row) {
        if (cell) {
            values.push_back(*cell);
        }
    }
    return values;
}

/// Units with at least two values: the only ones in which a disagreement can be observed.
std::vector<Values> pairableUnits(const Ratings& ratings) {
    std::vector<Values> units;
    for (const auto& row : ratings.units) {
        Values values = presentValues(row);
        if (values.size() >= 2) {
            units.push_back(std::move(values));
        }
    }
    return units;
}

std::size_t pairsIn(std::size_t m) {
    return m * (m - 1) / 2;
}

/// Sorted distinct values; the index of a value in it is its category.
Values categoriesOf(const std::vector<Values>& units) {
    Values all;
    for (const Values& unit : units) {
        all.insert(all.end(), unit.begin(), unit.end());
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

std::size_t categoryOf(const Values& categories, double value) {
    return static_cast<std::size_t>(std::lower_bound(categories.begin(), categories.end(), value) - categories.begin());
}

std::vector<std::size_t> countsIn(const Values& unit, const Values& categories) {
    std::vector<std::size_t> counts(categories.size(), 0);
    for (double v : unit) {
        ++counts[categoryOf(categories, v)];
    }
    return counts;
}

std::string excludedNote(std::size_t excluded, const char* why) {
    if (excluded == 0) {
        return {};
    }
    return std::to_string(excluded) + (excluded == 1 ? " unit " : " units ") + why;
}

// ---- Krippendorff's alpha -------------------------------------------------------------------------

/// o_ck = sum over units of (number of c-k value pairs in u, ordered, distinct positions) / (m_u - 1).
Matrix coincidences(const std::vector<Values>& units, const Values& categories) {
    const std::size_t k = categories.size();
    Matrix o(k, std::vector<double>(k, 0.0));
    for (const Values& unit : units) {
        const auto counts = countsIn(unit, categories);
        const double weight = 1.0 / static_cast<double>(unit.size() - 1);
        for (std::size_t c = 0; c < k; ++c) {
            for (std::size_t d = 0; d < k; ++d) {
                const double n = static_cast<double>(counts[c]);
                const double pairs = c == d ? n * (n - 1.0) : n * static_cast<double>(counts[d]);
                o[c][d] += pairs * weight;
            }
        }
    }
    return o;
}

/// n_c: row sums of the coincidence matrix = how often value c occurs among pairable values.
std::vector<double> marginals(const Matrix& o) {
    std::vector<double> n(o.size(), 0.0);
    for (std::size_t c = 0; c < o.size(); ++c) {
        for (double cell : o[c]) {
            n[c] += cell;
        }
    }
    return n;
}

/// Ordinal delta^2(c, k) = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2, with c <= k (Krippendorff 2011).
double ordinalDelta(const std::vector<double>& n, std::size_t c, std::size_t k) {
    const std::size_t lo = std::min(c, k);
    const std::size_t hi = std::max(c, k);
    double between = 0.0;
    for (std::size_t g = lo; g <= hi; ++g) {
        between += n[g];
    }
    const double d = between - (n[lo] + n[hi]) / 2.0;
    return d * d;
}

double delta(Level level, const Values& categories, const std::vector<double>& n, std::size_t c, std::size_t k) {
    if (c == k) {
        return 0.0;
    }
    switch (level) {
    case Level::Nominal: return 1.0;
    case Level::Ordinal: return ordinalDelta(n, c, k);
    case Level::Interval: return (categories[c] - categories[k]) * (categories[c] - categories[k]);
    }
    return 1.0;
}

struct Disagreement {
    double observed = 0.0; ///< sum_c sum_k o_ck delta_ck
    double expected = 0.0; ///< sum_c sum_k n_c n_k delta_ck
};

Disagreement disagreement(const Matrix& o, const Values& categories, Level level) {
    const std::vector<double> n = marginals(o);
    Disagreement sums;
    for (std::size_t c = 0; c < categories.size(); ++c) {
        for (std::size_t k = 0; k < categories.size(); ++k) {
            const double d = delta(level, categories, n, c, k);
            sums.observed += o[c][k] * d;
            sums.expected += n[c] * n[k] * d;
        }
    }
    return sums;
}

/// units, pairs and values of the pairable units, plus what was left out.
Figure pairableFigure(const Ratings& ratings, const std::vector<Values>& units) {
    Figure figure;
    figure.units = units.size();
    for (const Values& unit : units) {
        figure.pairs += pairsIn(unit.size());
        figure.values += unit.size();
    }
    figure.note = excludedNote(ratings.units.size() - units.size(), "with fewer than two values not pairable");
    return figure;
}

// ---- kappas -----------------------------------------------------------------------------------------

struct RatedPair {
    double first = 0.0;
    double second = 0.0;
};

std::vector<RatedPair> bothRated(const Ratings& ratings) {
    std::vector<RatedPair> pairs;
    for (const auto& row : ratings.units) {
        if (row.size() == 2 && row[0] && row[1]) {
            pairs.push_back({*row[0], *row[1]});
        }
    }
    return pairs;
}

/// Cohen's p_o and p_e from integer counts, so "p_e == 1" is decided exactly, not with a tolerance.
struct CohenCounts {
    std::uint64_t agreements = 0;
    std::uint64_t chanceNumerator = 0; ///< sum_k a_k b_k; p_e = chanceNumerator / N^2
};

CohenCounts cohenCounts(const std::vector<RatedPair>& pairs) {
    Values categories;
    for (const RatedPair& p : pairs) {
        categories.push_back(p.first);
        categories.push_back(p.second);
    }
    categories = categoriesOf({categories});
    std::vector<std::uint64_t> first(categories.size(), 0);
    std::vector<std::uint64_t> second(categories.size(), 0);
    CohenCounts counts;
    for (const RatedPair& p : pairs) {
        ++first[categoryOf(categories, p.first)];
        ++second[categoryOf(categories, p.second)];
        counts.agreements += p.first == p.second ? 1 : 0;
    }
    for (std::size_t k = 0; k < categories.size(); ++k) {
        counts.chanceNumerator += first[k] * second[k];
    }
    return counts;
}

/// Units rated by every one of `raters` raters, as value lists.
std::vector<Values> completeUnits(const Ratings& ratings, std::size_t raters) {
    std::vector<Values> units;
    for (const auto& row : ratings.units) {
        Values values = presentValues(row);
        if (values.size() == raters) {
            units.push_back(std::move(values));
        }
    }
    return units;
}

struct FleissSums {
    double meanAgreement = 0.0;   ///< P-bar: mean over units of P_i
    double chanceAgreement = 0.0; ///< P-bar_e = sum_j p_j^2
    std::size_t usedCategories = 0;
};

FleissSums fleissSums(const std::vector<Values>& units, std::size_t raters) {
    const Values categories = categoriesOf(units);
    const double n = static_cast<double>(raters);
    std::vector<double> totals(categories.size(), 0.0);
    FleissSums sums;
    for (const Values& unit : units) {
        const auto counts = countsIn(unit, categories);
        double squares = 0.0;
        for (std::size_t j = 0; j < counts.size(); ++j) {
            squares += static_cast<double>(counts[j] * counts[j]);
            totals[j] += static_cast<double>(counts[j]);
        }
        sums.meanAgreement += (squares - n) / (n * (n - 1.0));
    }
    const double all = static_cast<double>(units.size()) * n;
    sums.meanAgreement /= static_cast<double>(units.size());
    for (double total : totals) {
        sums.chanceAgreement += (total / all) * (total / all);
    }
    sums.usedCategories = categories.size();
    return sums;
}

std::size_t agreeingPairs(Values unit) {
    std::sort(unit.begin(), unit.end());
    std::size_t agreeing = 0;
    for (std::size_t i = 0; i < unit.size();) {
        std::size_t j = i + 1; // always advances, even for a value unequal to itself
        while (j < unit.size() && unit[j] == unit[i]) {
            ++j;
        }
        agreeing += pairsIn(j - i);
        i = j;
    }
    return agreeing;
}

} // namespace

Figure krippendorffAlpha(const Ratings& ratings, Level level) {
    if (std::string bad = nonFiniteNote(ratings); !bad.empty()) {
        return undefined(std::move(bad));
    }
    const std::vector<Values> units = pairableUnits(ratings);
    if (units.empty()) {
        return undefined(noPairsNote(ratings));
    }
    Figure figure = pairableFigure(ratings, units);
    const Values categories = categoriesOf(units);
    if (categories.size() < 2) {
        // Every delta is 0, so observed and expected disagreement are both 0 and alpha = 1 - 0/0.
        addNote(figure, "all pairable values identical: expected disagreement is 0, alpha undefined");
        return figure;
    }
    const Disagreement sums = disagreement(coincidences(units, categories), categories, level);
    const double n = static_cast<double>(figure.values);
    figure.value = 1.0 - (n - 1.0) * sums.observed / sums.expected;
    return figure;
}

Figure cohenKappa(const Ratings& ratings) {
    if (std::string bad = nonFiniteNote(ratings); !bad.empty()) {
        return undefined(std::move(bad));
    }
    if (ratings.units.empty() || raterCount(ratings) < 2) {
        return undefined(noPairsNote(ratings));
    }
    if (raterCount(ratings) > 2) {
        return undefined("Cohen's kappa needs exactly two raters; use Fleiss' kappa or alpha");
    }
    const std::vector<RatedPair> pairs = bothRated(ratings);
    if (pairs.empty()) {
        return undefined("no unit rated by both raters");
    }
    Figure figure;
    figure.units = figure.pairs = pairs.size();
    figure.values = 2 * pairs.size();
    figure.note = excludedNote(ratings.units.size() - pairs.size(), "not rated by both raters left out");
    const CohenCounts counts = cohenCounts(pairs);
    const std::uint64_t total = static_cast<std::uint64_t>(pairs.size()) * pairs.size();
    if (counts.chanceNumerator == total) {
        addNote(figure, "chance agreement is 1 (both raters used one and the same category): kappa undefined");
        return figure;
    }
    const double n = static_cast<double>(pairs.size());
    const double po = static_cast<double>(counts.agreements) / n;
    const double pe = static_cast<double>(counts.chanceNumerator) / static_cast<double>(total);
    figure.value = (po - pe) / (1.0 - pe);
    return figure;
}

Figure fleissKappa(const Ratings& ratings) {
    if (std::string bad = nonFiniteNote(ratings); !bad.empty()) {
        return undefined(std::move(bad));
    }
    const std::size_t raters = raterCount(ratings);
    if (ratings.units.empty() || raters < 2) {
        return undefined(noPairsNote(ratings));
    }
    const std::vector<Values> units = completeUnits(ratings, raters);
    if (units.empty()) {
        return undefined("no unit rated by all " + std::to_string(raters) + " raters");
    }
    Figure figure;
    figure.units = units.size();
    figure.pairs = units.size() * pairsIn(raters);
    figure.values = units.size() * raters;
    figure.note = excludedNote(ratings.units.size() - units.size(), "not rated by every rater left out");
    const FleissSums sums = fleissSums(units, raters);
    if (sums.usedCategories < 2) {
        addNote(figure, "all ratings in one category: chance agreement is 1, kappa undefined");
        return figure;
    }
    figure.value = (sums.meanAgreement - sums.chanceAgreement) / (1.0 - sums.chanceAgreement);
    return figure;
}

Figure percentAgreement(const Ratings& ratings) {
    if (std::string bad = nonFiniteNote(ratings); !bad.empty()) {
        return undefined(std::move(bad));
    }
    const std::vector<Values> units = pairableUnits(ratings);
    if (units.empty()) {
        return undefined(noPairsNote(ratings));
    }
    Figure figure = pairableFigure(ratings, units);
    std::size_t agreeing = 0;
    for (const Values& unit : units) {
        agreeing += agreeingPairs(unit);
    }
    figure.value = static_cast<double>(agreeing) / static_cast<double>(figure.pairs);
    return figure;
}

} // namespace kl::core::team
