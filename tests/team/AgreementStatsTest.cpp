#include "team/AgreementStats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace kl::core::team {
namespace {

using Cell = std::optional<double>;
constexpr Cell kMissing = std::nullopt;
constexpr double kPublished = 5e-4; // published figures are rounded to three decimals
constexpr double kExact = 1e-12;    // two computations of the same closed form

/// Builds Ratings from observer rows (as printed in the papers: one row per observer, one column per unit).
Ratings fromObserverRows(const std::vector<std::vector<Cell>>& observers) {
    Ratings ratings;
    ratings.units.assign(observers.front().size(), std::vector<Cell>(observers.size()));
    for (std::size_t r = 0; r < observers.size(); ++r) {
        for (std::size_t u = 0; u < observers[r].size(); ++u) {
            ratings.units[u][r] = observers[r][u];
        }
    }
    return ratings;
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers A..D,
// 12 units, values 1..5, missing cells. Unit 12 has a single value and is not pairable.
Ratings krippendorffExample() {
    const Cell m = kMissing;
    return fromObserverRows({
        {1, 2, 3, 3, 2, 1, 4, 1, 2, m, m, m}, // A
        {1, 2, 3, 3, 2, 2, 4, 1, 2, 5, m, 3}, // B
        {m, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, m}, // C
        {1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, m}, // D
    });
}

// ---- an independent alpha: the pairwise-sum definition, no coincidence matrix -------------------------
//   D_o = 1/n * sum_u 1/(m_u - 1) * sum_{i != j in u} delta(v_i, v_j)
//   D_e = 1/(n (n - 1)) * sum_{i != j over all pairable values} delta(v_i, v_j)
//   alpha = 1 - D_o / D_e

using Delta = std::function<double(double, double)>;

std::vector<std::vector<double>> referencePairable(const Ratings& ratings) {
    std::vector<std::vector<double>> units;
    for (const auto& row : ratings.units) {
        std::vector<double> values;
        for (const Cell& c : row) {
            if (c) {
                values.push_back(*c);
            }
        }
        if (values.size() >= 2) {
            units.push_back(values);
        }
    }
    return units;
}

std::vector<double> flatten(const std::vector<std::vector<double>>& units) {
    std::vector<double> all;
    for (const auto& u : units) {
        all.insert(all.end(), u.begin(), u.end());
    }
    return all;
}

double referenceAlpha(const Ratings& ratings, const Delta& delta) {
    const auto units = referencePairable(ratings);
    const auto all = flatten(units);
    const double n = static_cast<double>(all.size());
    double observed = 0.0;
    for (const auto& u : units) {
        double within = 0.0;
        for (std::size_t i = 0; i < u.size(); ++i) {
            for (std::size_t j = 0; j < u.size(); ++j) {
                within += i == j ? 0.0 : delta(u[i], u[j]);
            }
        }
        observed += within / static_cast<double>(u.size() - 1);
    }
    double expected = 0.0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (std::size_t j = 0; j < all.size(); ++j) {
            expected += i == j ? 0.0 : delta(all[i], all[j]);
        }
    }
    return 1.0 - (observed / n) / (expected / (n * (n - 1.0)));
}

Delta nominalDelta() {
    return [](double a, double b) { return a == b ? 0.0 : 1.0; };
}

Delta intervalDelta() {
    return [](double a, double b) { return (a - b) * (a - b); };
}

/// Ordinal: (number of pairable values ranked from a to b inclusive - (count(a) + count(b)) / 2)^2,
/// counted straight from the values rather than from coincidence-matrix marginals.
Delta ordinalDelta(const Ratings& ratings) {
    const auto all = flatten(referencePairable(ratings));
    return [all](double a, double b) {
        if (a == b) {
            return 0.0;
        }
        double between = 0.0;
        double ends = 0.0;
        for (double v : all) {
            between += (v >= std::min(a, b) && v <= std::max(a, b)) ? 1.0 : 0.0;
            ends += (v == a || v == b) ? 1.0 : 0.0;
        }
        const double d = between - ends / 2.0;
        return d * d;
    };
}

double valueOf(const Figure& figure) {
    EXPECT_TRUE(figure.value.has_value()) << figure.note;
    return figure.value.value_or(std::numeric_limits<double>::quiet_NaN());
}

// ---- 1. Krippendorff's worked example -----------------------------------------------------------------

TEST(AgreementStats, KrippendorffNominalMatchesPaperAndReference) {
    const Ratings data = krippendorffExample();
    const Figure alpha = krippendorffAlpha(data, Level::Nominal);
    const double reference = referenceAlpha(data, nominalDelta());
    EXPECT_NEAR(reference, 0.743, kPublished); // Krippendorff 2011: alpha_nominal = .743
    EXPECT_NEAR(valueOf(alpha), reference, kExact);
    EXPECT_NEAR(valueOf(alpha), 0.743, kPublished);
    EXPECT_EQ(alpha.units, 11u);  // unit 12 (B only) is not pairable
    EXPECT_EQ(alpha.values, 40u); // n.. = 40 in the paper
    EXPECT_EQ(alpha.pairs, 55u);  // units 2-9 have 4 values (6 pairs each), 1 and 10 have 3 (3), 11 has 2 (1)
    EXPECT_NE(alpha.note.find("1 unit"), std::string::npos) << alpha.note;
}

TEST(AgreementStats, KrippendorffOrdinalMatchesPaperAndReference) {
    const Ratings data = krippendorffExample();
    const double reference = referenceAlpha(data, ordinalDelta(data));
    EXPECT_NEAR(reference, 0.815, kPublished); // Krippendorff 2011: alpha_ordinal = .815
    EXPECT_NEAR(valueOf(krippendorffAlpha(data, Level::Ordinal)), reference, kExact);
}

TEST(AgreementStats, KrippendorffIntervalMatchesPaperAndReference) {
    const Ratings data = krippendorffExample();
    const double reference = referenceAlpha(data, intervalDelta());
    EXPECT_NEAR(reference, 0.849, kPublished); // Krippendorff 2011: alpha_interval = .849
    EXPECT_NEAR(valueOf(krippendorffAlpha(data, Level::Interval)), reference, kExact);
}

TEST(AgreementStats, KrippendorffLevelsDifferOnSameData) {
    // Guards against a level being ignored (e.g. every level silently computed as nominal).
    const Ratings data = krippendorffExample();
    const double nominal = valueOf(krippendorffAlpha(data, Level::Nominal));
    const double ordinal = valueOf(krippendorffAlpha(data, Level::Ordinal));
    const double interval = valueOf(krippendorffAlpha(data, Level::Interval));
    EXPECT_GT(std::abs(nominal - ordinal), 0.05);
    EXPECT_GT(std::abs(ordinal - interval), 0.01);
}

// ---- 2. Cohen's kappa -------------------------------------------------------------------------------

/// Two raters, yes = 1 / no = 0, with the given cell counts of the 2x2 table.
Ratings twoByTwo(int yesYes, int yesNo, int noYes, int noNo) {
    Ratings ratings;
    const auto add = [&ratings](int count, double a, double b) {
        for (int i = 0; i < count; ++i) {
            ratings.units.push_back({a, b});
        }
    };
    add(yesYes, 1, 1);
    add(yesNo, 1, 0);
    add(noYes, 0, 1);
    add(noNo, 0, 0);
    return ratings;
}

TEST(AgreementStats, CohenTwoByTwoWorkedExample) {
    // 50 items: p_o = 35/50 = 0.7; rater A yes 25/50, rater B yes 30/50, p_e = .5*.6 + .5*.4 = 0.5;
    // kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4 (Cohen 1960 formula; the standard textbook 2x2 example).
    const Figure kappa = cohenKappa(twoByTwo(20, 5, 10, 15));
    EXPECT_NEAR(valueOf(kappa), 0.4, kExact);
    EXPECT_EQ(kappa.units, 50u);
    EXPECT_EQ(kappa.pairs, 50u);
    EXPECT_TRUE(kappa.note.empty()) << kappa.note;
}

TEST(AgreementStats, CohenUnequalMarginals) {
    // 100 items, 45/15/25/15: p_o = 0.6; A says yes 60/100, B 70/100, p_e = .6*.7 + .4*.3 = 0.54;
    // kappa = 0.06 / 0.46 = 0.1304 (the same textbook source). Unequal marginals catch a p_e that
    // uses one rater's proportions twice (Scott's pi instead of Cohen's kappa, or a copy-paste slip).
    EXPECT_NEAR(valueOf(cohenKappa(twoByTwo(45, 15, 25, 15))), 0.06 / 0.46, kExact);
    EXPECT_NEAR(valueOf(cohenKappa(twoByTwo(45, 15, 25, 15))), 0.1304, kPublished);
}

TEST(AgreementStats, CohenIgnoresUnitsNotRatedByBoth) {
    Ratings data = twoByTwo(20, 5, 10, 15);
    data.units.push_back({1.0, kMissing});
    data.units.push_back({kMissing, 0.0});
    data.units.push_back({1.0}); // short row: second rater missing
    const Figure kappa = cohenKappa(data);
    EXPECT_NEAR(valueOf(kappa), 0.4, kExact);
    EXPECT_EQ(kappa.units, 50u);
    EXPECT_NE(kappa.note.find("3 units"), std::string::npos) << kappa.note;
}

TEST(AgreementStats, CohenNeedsExactlyTwoRaters) {
    Ratings three;
    three.units = {{1, 1, 1}, {2, 2, 1}};
    const Figure kappa = cohenKappa(three);
    EXPECT_FALSE(kappa.value);
    EXPECT_NE(kappa.note.find("exactly two raters"), std::string::npos) << kappa.note;
}

// ---- 3. Fleiss' kappa -------------------------------------------------------------------------------

/// One unit per row of category counts: rater slots are filled category by category.
Ratings fromCategoryCounts(const std::vector<std::vector<int>>& counts) {
    Ratings ratings;
    for (const auto& row : counts) {
        std::vector<Cell> unit;
        for (std::size_t category = 0; category < row.size(); ++category) {
            unit.insert(unit.end(), static_cast<std::size_t>(row[category]), static_cast<double>(category + 1));
        }
        ratings.units.push_back(unit);
    }
    return ratings;
}

// 10 subjects, 14 raters, 5 categories; counts n_ij per subject. This is the worked example of the
// Wikipedia article "Fleiss' kappa" (P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210).
const std::vector<std::vector<int>> kFleissCounts = {
    {0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
    {7, 7, 0, 0, 0},  {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
};

TEST(AgreementStats, FleissClassicExample) {
    const Ratings data = fromCategoryCounts(kFleissCounts);
    ASSERT_EQ(data.units.size(), 10u);
    for (const auto& unit : data.units) {
        ASSERT_EQ(unit.size(), 14u);
    }
    const Figure kappa = fleissKappa(data);
    EXPECT_NEAR(valueOf(kappa), 0.210, kPublished);
    EXPECT_EQ(kappa.units, 10u);
    EXPECT_EQ(kappa.pairs, 10u * 91u); // 14 raters -> 91 pairs per subject
    EXPECT_TRUE(kappa.note.empty()) << kappa.note;
}

TEST(AgreementStats, FleissUsesOnlyCompleteUnitsAndSaysSo) {
    Ratings data = fromCategoryCounts(kFleissCounts);
    std::vector<Cell> partial(14, 1.0);
    partial[3] = kMissing;
    data.units.push_back(partial);
    const Figure kappa = fleissKappa(data);
    EXPECT_NEAR(valueOf(kappa), valueOf(fleissKappa(fromCategoryCounts(kFleissCounts))), kExact);
    EXPECT_EQ(kappa.units, 10u);
    EXPECT_NE(kappa.note.find("1 unit not rated by every rater"), std::string::npos) << kappa.note;
}

TEST(AgreementStats, FleissWithTwoRatersEqualsScottsPi) {
    // Fleiss (1971) generalises Scott's pi: with two raters and complete data they coincide.
    const Ratings data = twoByTwo(20, 5, 10, 15);
    const double po = 35.0 / 50.0;
    const double yes = (25.0 + 30.0) / 100.0;
    const double pi = (po - (yes * yes + (1 - yes) * (1 - yes))) / (1 - (yes * yes + (1 - yes) * (1 - yes)));
    EXPECT_NEAR(valueOf(fleissKappa(data)), pi, kExact);
}

// ---- 4. edge cases ----------------------------------------------------------------------------------

TEST(AgreementStats, MissingDataUnitsWithOneValueDoNotChangeAlpha) {
    Ratings full;
    full.units = {{1, 1, 2}, {2, 2, 2}, {3, 2, 3}, {1, kMissing, 1}};
    Ratings padded = full;
    padded.units.push_back({kMissing, 3, kMissing});        // single value: not pairable
    padded.units.push_back({kMissing, kMissing, kMissing}); // nothing at all
    const Figure a = krippendorffAlpha(full, Level::Interval);
    const Figure b = krippendorffAlpha(padded, Level::Interval);
    EXPECT_NEAR(valueOf(a), valueOf(b), kExact);
    EXPECT_NEAR(valueOf(a), referenceAlpha(full, intervalDelta()), kExact);
    EXPECT_EQ(b.units, 4u);
    EXPECT_EQ(b.values, 11u);
    EXPECT_NE(b.note.find("2 units"), std::string::npos) << b.note;
    EXPECT_NEAR(valueOf(percentAgreement(padded)), valueOf(percentAgreement(full)), kExact);
}

TEST(AgreementStats, OneRaterOnlyIsUndefinedEverywhere) {
    Ratings one;
    one.units = {{1}, {2}, {3}};
    for (const Figure& f :
         {krippendorffAlpha(one, Level::Nominal), cohenKappa(one), fleissKappa(one), percentAgreement(one)}) {
        EXPECT_FALSE(f.value);
        EXPECT_EQ(f.note, "only one rater");
        EXPECT_EQ(f.units, 0u);
    }
}

TEST(AgreementStats, EmptyInputIsUndefinedEverywhere) {
    const Ratings none;
    for (const Figure& f :
         {krippendorffAlpha(none, Level::Ordinal), cohenKappa(none), fleissKappa(none), percentAgreement(none)}) {
        EXPECT_FALSE(f.value);
        EXPECT_EQ(f.note, "no units");
    }
}

TEST(AgreementStats, RatersNeverOverlapIsUndefined) {
    Ratings disjoint;
    disjoint.units = {{1, kMissing}, {kMissing, 2}};
    EXPECT_FALSE(krippendorffAlpha(disjoint, Level::Nominal).value);
    EXPECT_EQ(krippendorffAlpha(disjoint, Level::Nominal).note, "no unit has values from two or more raters");
    EXPECT_FALSE(percentAgreement(disjoint).value);
    EXPECT_EQ(cohenKappa(disjoint).note, "no unit rated by both raters");
    EXPECT_EQ(fleissKappa(disjoint).note, "no unit rated by all 2 raters");
}

TEST(AgreementStats, AllIdenticalScores) {
    Ratings same;
    same.units = {{3, 3, 3}, {3, 3, kMissing}, {3, 3, 3}};
    for (Level level : {Level::Nominal, Level::Ordinal, Level::Interval}) {
        const Figure alpha = krippendorffAlpha(same, level);
        EXPECT_FALSE(alpha.value); // D_e = 0: alpha = 1 - 0/0
        EXPECT_NE(alpha.note.find("expected disagreement is 0"), std::string::npos) << alpha.note;
        EXPECT_EQ(alpha.units, 3u);
    }
    const Figure fleiss = fleissKappa(same);
    EXPECT_FALSE(fleiss.value);
    EXPECT_NE(fleiss.note.find("chance agreement is 1"), std::string::npos) << fleiss.note;
    EXPECT_NE(fleiss.note.find("1 unit not rated"), std::string::npos) << fleiss.note; // earlier note kept
    Ratings pair;
    pair.units = {{3, 3}, {3, 3}};
    const Figure cohen = cohenKappa(pair);
    EXPECT_FALSE(cohen.value);
    EXPECT_NE(cohen.note.find("chance agreement is 1"), std::string::npos) << cohen.note;
    EXPECT_DOUBLE_EQ(valueOf(percentAgreement(same)), 1.0); // raw agreement is well defined
}

TEST(AgreementStats, PerfectAgreementGivesOne) {
    Ratings data;
    data.units = {{1, 1}, {2, 2}, {3, 3}, {2, 2}, {5, 5}};
    for (Level level : {Level::Nominal, Level::Ordinal, Level::Interval}) {
        EXPECT_NEAR(valueOf(krippendorffAlpha(data, level)), 1.0, kExact);
    }
    EXPECT_NEAR(valueOf(cohenKappa(data)), 1.0, kExact);
    EXPECT_NEAR(valueOf(fleissKappa(data)), 1.0, kExact);
    EXPECT_NEAR(valueOf(percentAgreement(data)), 1.0, kExact);
}

TEST(AgreementStats, SystematicDisagreementIsBelowZero) {
    // Two raters always swap 1 and 2. Coincidences o_12 = o_21 = 2, n_1 = n_2 = 2, n = 4:
    // alpha = 1 - 3 * 4 / 8 = -0.5; Cohen: p_o = 0, p_e = 0.5, kappa = -1.
    Ratings data;
    data.units = {{1, 2}, {2, 1}};
    EXPECT_NEAR(valueOf(krippendorffAlpha(data, Level::Nominal)), -0.5, kExact);
    EXPECT_LT(valueOf(krippendorffAlpha(data, Level::Interval)), 0.0);
    EXPECT_NEAR(valueOf(cohenKappa(data)), -1.0, kExact);
    EXPECT_NEAR(valueOf(percentAgreement(data)), 0.0, kExact);
}

TEST(AgreementStats, NominalComparesValuesExactly) {
    Ratings data;
    data.units = {{2.5, 2.5}, {2.5, 2.5 + 1e-9}, {0.1 + 0.2, 0.3}, {1, 1}};
    const Figure agreement = percentAgreement(data);
    EXPECT_NEAR(valueOf(agreement), 0.5, kExact); // 0.1 + 0.2 != 0.3 in binary floating point
    EXPECT_NEAR(valueOf(krippendorffAlpha(data, Level::Nominal)), referenceAlpha(data, nominalDelta()), kExact);
    EXPECT_LT(valueOf(cohenKappa(data)), 1.0);
}

TEST(AgreementStats, NonFiniteRatingIsRejected) {
    Ratings data;
    data.units = {{1, 1}, {2, std::numeric_limits<double>::quiet_NaN()}};
    for (const Figure& f :
         {krippendorffAlpha(data, Level::Nominal), cohenKappa(data), fleissKappa(data), percentAgreement(data)}) {
        EXPECT_FALSE(f.value);
        EXPECT_EQ(f.note, "non-finite rating at unit 1, rater 1");
    }
}

TEST(AgreementStats, PercentAgreementCountsPairsWithinUnits) {
    // Unit 1: 1,1,2 -> 1 of 3 pairs agree; unit 2: 4,4 -> 1 of 1; unit 3: single value, ignored.
    Ratings data;
    data.units = {{1, 1, 2}, {4, 4, kMissing}, {kMissing, 5, kMissing}};
    const Figure agreement = percentAgreement(data);
    EXPECT_NEAR(valueOf(agreement), 2.0 / 4.0, kExact);
    EXPECT_EQ(agreement.pairs, 4u);
    EXPECT_EQ(agreement.units, 2u);
}

// ---- 5. alpha and Scott's pi ------------------------------------------------------------------------

/// Scott's (1955) pi for two raters and complete data: expected agreement from the pooled proportions.
double scottsPi(const Ratings& data) {
    std::vector<double> pooled;
    double agree = 0.0;
    for (const auto& unit : data.units) {
        pooled.push_back(*unit[0]);
        pooled.push_back(*unit[1]);
        agree += *unit[0] == *unit[1] ? 1.0 : 0.0;
    }
    const double po = agree / static_cast<double>(data.units.size());
    double pe = 0.0;
    for (double category : {1.0, 2.0, 3.0}) {
        const double p = static_cast<double>(std::count(pooled.begin(), pooled.end(), category)) /
                         static_cast<double>(pooled.size());
        pe += p * p;
    }
    return (po - pe) / (1.0 - pe);
}

Ratings repeated(const Ratings& data, int times) {
    Ratings out;
    for (int i = 0; i < times; ++i) {
        out.units.insert(out.units.end(), data.units.begin(), data.units.end());
    }
    return out;
}

TEST(AgreementStats, NominalAlphaApproachesScottsPi) {
    Ratings base;
    base.units = {{1, 1}, {1, 2}, {2, 2}, {3, 3}, {2, 3}, {1, 1}, {3, 3}, {2, 1}};
    double previousGap = std::numeric_limits<double>::infinity();
    for (int times : {1, 10, 100}) {
        const Ratings data = repeated(base, times);
        const double pi = scottsPi(data);
        const double alpha = valueOf(krippendorffAlpha(data, Level::Nominal));
        const double n = 2.0 * static_cast<double>(data.units.size()); // pairable values n..
        // Exact identity for two raters without missing data: 1 - alpha = (1 - pi) * (n - 1) / n.
        EXPECT_NEAR(1.0 - alpha, (1.0 - pi) * (n - 1.0) / n, kExact);
        const double gap = std::abs(alpha - pi);
        EXPECT_LT(gap, previousGap);
        previousGap = gap;
    }
    EXPECT_LT(previousGap, 1e-3);
}

} // namespace
} // namespace kl::core::team
