#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

// Inter-rater agreement statistics for rubric scores given by several reviewers.
// Pure standard C++ so the figures can be unit-tested against published worked examples.
//
// Conventions shared by every function:
//  - Ratings are compared exactly (operator==) for nominal purposes: 2.5 and 2.5000001 are different
//    categories. Rubric scores are small integers stored as double, so exact comparison is what a
//    reviewer means by "the same score"; a tolerance would silently merge categories.
//  - The number of raters is the widest unit row; a shorter row means the missing raters did not rate it.
//  - A non-finite rating (NaN, infinity) makes every figure undefined: NaN never equals itself and would
//    corrupt category counts, and it is a data error the caller should see rather than have skipped.
//  - An undefined figure has value == std::nullopt and a note saying why; a defined figure may still
//    carry a note about data that was left out (e.g. units rated by fewer than two raters).
namespace kl::core::team {

/// Level of measurement; selects Krippendorff's difference function delta^2(c, k).
enum class Level { Nominal, Ordinal, Interval };

/// A reliability data matrix: units (e.g. task x rubric item) by raters; std::nullopt = missing.
struct Ratings {
    std::vector<std::vector<std::optional<double>>> units; ///< units[u][r]: rater r's value for unit u
};

/// One agreement coefficient together with the amount of data it rests on.
struct Figure {
    std::optional<double> value; ///< nullopt when undefined (no pairable data, zero expected disagreement, ...)
    std::size_t units = 0;       ///< units the figure actually used (see each function)
    std::size_t pairs = 0;       ///< unordered pairs of values compared within those units
    std::size_t values = 0;      ///< values in those units (Krippendorff's n..)
    std::string note;            ///< why undefined, or what was left out; empty when nothing to say
};

/// Krippendorff's alpha by the coincidence-matrix method (Krippendorff 2011, "Computing Krippendorff's
/// Alpha-Reliability"): alpha = 1 - (n.. - 1) * sum o_ck d_ck / sum n_c n_k d_ck.
/// Any number of raters and missing data; units with fewer than two values are not pairable and are
/// ignored. Ordinal uses the rank-based metric built from the value frequencies n_g, interval the squared
/// difference. Undefined when nothing is pairable or when all pairable values are identical (expected
/// disagreement 0, alpha = 0/0; Krippendorff: such data cannot show whether values are reliable).
/// The matrix is dense in the number of distinct values, which is small for rubric scales.
[[nodiscard]] Figure krippendorffAlpha(const Ratings& ratings, Level level);

/// Cohen's (1960) unweighted kappa for exactly two raters (columns 0 and 1), nominal; only units rated by
/// both are used. Undefined when chance agreement p_e is 1 (both raters used the same single category).
[[nodiscard]] Figure cohenKappa(const Ratings& ratings);

/// Fleiss' (1971) kappa for two or more raters, nominal. Fleiss assumes every unit has the same number of
/// ratings, so only units rated by every rater are used; the note says how many were left out.
/// Undefined when no unit is complete or all complete units fall in one category (P_e = 1).
[[nodiscard]] Figure fleissKappa(const Ratings& ratings);

/// Share of agreeing (exactly equal) pairs among all unordered pairs of values within units, in [0, 1].
/// Pairs, not units, are weighted equally, so a unit with more raters counts more. Not chance-corrected.
[[nodiscard]] Figure percentAgreement(const Ratings& ratings);

} // namespace kl::core::team
