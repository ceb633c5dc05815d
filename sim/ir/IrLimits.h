#pragma once

#include <cstdint>

namespace kl::sim {

/// The ranges IrLoader accepts for the numbers of a Kernel IR (docs/kernel-ir.md, "Limits"). Each is far above
/// what a NeuronCore kernel produces (SBUF is 24-32 MiB; one DMA moving a terabyte is not a kernel), and
/// together they bound every value the simulator turns into a time, a byte count or an index: an element
/// range times an element size, a transfer's bytes divided by a bandwidth, a pool offset. With them checked at
/// load, the simulator's inner loop needs no checks of its own beyond the run-wide totals (Pipeline).
namespace ir_limits {

inline constexpr std::int64_t kMaxInstructions = std::int64_t{1} << 26; ///< 67,108,864
inline constexpr std::int64_t kMaxBuffers = std::int64_t{1} << 26;
/// `elements` and `bytes` of one instruction; the bytes of one buffer (per partition on chip, whole in HBM);
/// one shape dimension; an access pattern's element count (product of its counts).
inline constexpr std::int64_t kMaxSize = std::int64_t{1} << 40;
/// |offset|, |stride| and the extent of an access pattern, in elements.
inline constexpr std::int64_t kMaxExtent = std::int64_t{1} << 48;
inline constexpr std::int64_t kMaxPartitions = 128;
inline constexpr std::int64_t kMaxDtypeBytes = 64;
/// Operands per `dst` / `src` list, dimensions per pattern, frames per `loc`, values per `iter` / `pid`: the
/// counts are stored in 8 bits.
inline constexpr std::int64_t kMaxOperands = 64;
inline constexpr std::int64_t kMaxPatternDims = 16;
inline constexpr std::int64_t kMaxListValues = 255;
/// Matmul tile sizes in `attrs` (moving_free, stationary_free, contraction).
inline constexpr std::int64_t kMaxTileSize = std::int64_t{1} << 24;
/// Ids, source file indices and line numbers (32-bit fields; 0xffffffff means "none").
inline constexpr std::int64_t kMaxId = 0xfffffffe;
inline constexpr std::int64_t kMaxLine = 0x7fffffff;
/// A grid dimension and a kernel argument's shape dimension.
inline constexpr std::int64_t kMaxGrid = std::int64_t{1} << 20;

} // namespace ir_limits

} // namespace kl::sim
