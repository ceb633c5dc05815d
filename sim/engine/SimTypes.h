#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kl::sim {

/// Simulated time in picoseconds. Integer so that the same run gives the same bits everywhere; a cycle of a
/// 2.8 GHz engine is rounded up to 358 ps when a cost is converted (docs/simulator.md).
using TimePs = std::int64_t;

/// Timeline lanes: the two TensorE rows, the other engines, then one lane per DMA queue.
enum class Lane : std::uint16_t {
    LoadStationary = 0,
    MultiplyMoving = 1,
    Vector = 2,
    Scalar = 3,
    GpSimd = 4,
    FirstDmaQueue = 5
};
inline constexpr std::uint16_t kComputeLanes = 5;
[[nodiscard]] constexpr std::uint16_t dmaLane(std::uint32_t queue) {
    return static_cast<std::uint16_t>(static_cast<std::uint16_t>(Lane::FirstDmaQueue) + queue);
}
/// "pe.ls", "pe.mm", "vector", "scalar", "gpsimd", "dma.q0" ...
[[nodiscard]] std::string laneName(std::uint16_t lane);

/// Why an instruction started when it did: the latest of the constraints on it.
enum class WaitCause : std::uint8_t {
    None,         ///< nothing held it: it started at time 0 on an idle unit
    Dependency,   ///< waited for the instruction in `waitOn` (RAW/WAR/WAW on an overlapping region)
    Engine,       ///< its engine was still busy with the previous instruction in program order
    DmaQueue,     ///< its DMA queue was still busy with the previous transfer
    SbufCapacity, ///< a tile it writes first had no room in SBUF until then
    PsumCapacity, ///< a tile it writes first had no room in PSUM until then
    Count
};
[[nodiscard]] std::string_view waitCauseName(WaitCause cause);

} // namespace kl::sim
