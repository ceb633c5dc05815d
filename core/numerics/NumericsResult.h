#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kl::core {

/// The three comparisons of a numerics run, in the order the contract lists them. One table: names,
/// labels and the JSON keys are all generated from it (NumericsResult.cpp).
enum class ComparisonKind { NkiVsExact, GpuVsExact, NkiVsGpu };
inline constexpr std::size_t kComparisonKinds = 3;
inline constexpr std::array<ComparisonKind, kComparisonKinds> kAllComparisons = {
    ComparisonKind::NkiVsExact, ComparisonKind::GpuVsExact, ComparisonKind::NkiVsGpu};

/// "nki_vs_exact" (the JSON key).
[[nodiscard]] std::string_view comparisonKey(ComparisonKind kind);
/// "NKI vs exact" (for people).
[[nodiscard]] std::string_view comparisonLabel(ComparisonKind kind);

/// One of the worst elements of a comparison.
struct NumericsWorstElement {
    std::vector<std::int64_t> index;
    double value = 0;
    double expected = 0;
};

/// One output compared with one reference: error figures (non-finite values kept as NaN/inf), the tolerance
/// used and whether every element was within it.
struct NumericsComparison {
    double maxAbsError = 0;
    double maxRelError = 0;
    double maxUlpError = 0;
    double rmsError = 0;
    std::int64_t mismatches = 0;
    double mismatchPct = 0;
    double rtol = 0;
    double atol = 0;
    bool passed = false;
    std::vector<NumericsWorstElement> worst; ///< largest abs error first
};

/// The output folded to 2-D and cut into cells of cellRows x cellCols elements (NKI vs exact): each cell's
/// largest abs error and the flat element index where it is.
struct NumericsHeatmap {
    int rows = 0;
    int cols = 0;
    std::int64_t cellRows = 1;
    std::int64_t cellCols = 1;
    std::vector<double> absError;    ///< rows * cols, row-major
    std::vector<std::int64_t> worst; ///< rows * cols flat element indices
};

/// Counts of log10 |error| in bins (edges.size() == counts.size() + 1); exact elements counted in `zeros`.
struct NumericsHistogram {
    std::vector<double> log10Edges;
    std::vector<std::int64_t> counts;
    std::int64_t zeros = 0;
};

struct NumericsTensor {
    std::string name;
    std::vector<std::int64_t> shape;
    std::string dtype;
};

struct NumericsOutput {
    NumericsTensor tensor;
    std::array<std::optional<NumericsComparison>, kComparisonKinds> comparisons; ///< by ComparisonKind
    std::optional<NumericsHeatmap> heatmap;
    std::optional<NumericsHistogram> histogram;

    [[nodiscard]] const std::optional<NumericsComparison>& comparison(ComparisonKind kind) const {
        return comparisons[static_cast<std::size_t>(kind)];
    }
};

/// An instruction that added rounding error: max |hardware result - float64 result of the same inputs|.
struct NumericsInstruction {
    std::int64_t index = 0; ///< in the IR of the same trace
    std::string op;
    std::string file;
    int line = 0;
    double addedError = 0;
    std::string output;
};

/// A numerics run as the front end reported it (docs/numerics-json.md). Immutable once read; shared between
/// the CLI's table, the review file, reports, findings and the GUI's Numerics dock.
struct NumericsResult {
    std::string kernel;
    std::string kernelFile;
    std::vector<NumericsTensor> args;
    std::string inputsKind;
    std::int64_t seed = 0;
    std::string inputsFile;
    std::string reference;    ///< "" when none
    std::string cudaNumerics; ///< "none" when not given
    std::string toleranceStandard;
    std::string toleranceSource;
    bool toleranceOverridden = false;
    std::int64_t instructions = 0;
    double valueMs = 0;
    std::vector<NumericsOutput> outputs;
    std::vector<NumericsInstruction> topErrorInstructions; ///< largest first
    std::vector<std::string> warnings;

    /// Every comparison that was made passed (true when none was made).
    [[nodiscard]] bool passed() const;
    /// Comparisons made in all, and how many failed.
    [[nodiscard]] int comparisonCount() const;
    [[nodiscard]] int failedCount() const;
};

/// "default (rtol 0.016, atol 1e-05, overridden)": the standard of a run and the tolerances its comparisons
/// used, for a table header or a report line. Several outputs with different dtypes list each rtol/atol pair.
[[nodiscard]] std::string toleranceSummary(const NumericsResult& result);

/// A number as the contract writes it: "nan", "inf", "-inf", else the shortest text that reads back the same.
[[nodiscard]] std::string numericsNumber(double value);

} // namespace kl::core
