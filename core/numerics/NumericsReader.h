#pragma once

#include "common/Error.h"
#include "numerics/NumericsResult.h"

#include <filesystem>
#include <string_view>

namespace kl::core {

/// Limits of a numerics document the reader accepts (docs/numerics-json.md, "Limits"): a document beyond them
/// is refused with the field's name rather than held in memory.
struct NumericsLimits {
    static constexpr std::size_t kMaxBytes = 64u << 20;
    static constexpr std::size_t kMaxOutputs = 256;
    static constexpr std::size_t kMaxArgs = 256;
    static constexpr std::size_t kMaxDims = 8;
    static constexpr std::size_t kMaxWorst = 64;
    static constexpr std::size_t kMaxTopInstructions = 256;
    static constexpr int kMaxHeatmapSide = 256;
    static constexpr std::size_t kMaxHistogramBins = 4096;
    static constexpr std::size_t kMaxWarnings = 1000;
    static constexpr std::size_t kMaxText = 4096; ///< bytes of one name, op or warning
    static constexpr int kMaxDepth = 16;
};

/// Reads the numerics document the front end writes in value mode (the contract in docs/numerics-json.md)
/// with typed, range-checked reads in the style of the other hardened loaders: a wrong type, a missing key or
/// an absurd number is an ErrorCode::Parse error naming the field ("outputs[0].comparisons.nki_vs_exact.
/// mismatches: expected an integer from 0 to 2^62, found the number -3"). Floats may be the strings "nan",
/// "inf" and "-inf" wherever the contract allows a number; counts, indices and sizes must be finite.
/// `file` names the document in errors.
[[nodiscard]] Expected<NumericsResult> parseNumericsDocument(std::string_view text, const std::string& file = {});

/// Reads and parses a numerics document from a file.
[[nodiscard]] Expected<NumericsResult> readNumericsFile(const std::filesystem::path& path);

} // namespace kl::core
