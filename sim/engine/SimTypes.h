#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace kl::sim {

/// Simulated time in picoseconds. Integer so that the same run gives the same bits everywhere; a cycle of a
/// 2.8 GHz engine is rounded up to 358 ps when a cost is converted (docs/simulator.md).
using TimePs = std::int64_t;

/// The simulated time a run may reach (2^61 ps, about 27 days). Every value from a profile or an IR is bounded
/// when it is loaded and one instruction's duration saturates at kMaxDurationPs, so a start (below kMaxTimePs)
/// plus a few durations never overflows; the Pipeline stops a run with an error as soon as an instruction ends at
/// or after kMaxTimePs, which every saturated duration does (docs/simulator.md, "Limits").
inline constexpr TimePs kMaxTimePs = TimePs{1} << 61;
inline constexpr TimePs kMaxDurationPs = kMaxTimePs;

/// The bytes all DMA transfers of a run may move, and the bytes all its on-chip tiles may hold, in total; one
/// transfer or tile is bounded by the IR loader's limits, so the running totals cannot overflow before this.
inline constexpr std::int64_t kMaxTotalBytes = std::int64_t{1} << 62;

/// A duration in picoseconds (already rounded up) as TimePs, saturating at kMaxDurationPs. One `minsd` on the
/// costing path: `ps` is never NaN, the profile and IR checks keep every cost finite.
[[nodiscard]] inline TimePs durationPs(double ps) {
    return static_cast<TimePs>(std::min(ps, static_cast<double>(kMaxDurationPs)));
}

/// `v` as an integer in [lo, hi] (NaN gives lo): for casts of profile numbers, which checkProfile keeps in range
/// before a run, made safe for any profile so that constructing a unit can never be undefined.
[[nodiscard]] constexpr std::int64_t clampToInt(double v, std::int64_t lo, std::int64_t hi) {
    if (!(v >= static_cast<double>(lo))) {
        return lo;
    }
    return v < static_cast<double>(hi) ? static_cast<std::int64_t>(v) : hi;
}

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

/// Logical NeuronCores (LNC 2): core c's lanes are [c x perCore, (c + 1) x perCore), each laid out as above, with
/// perCore = kComputeLanes + the profile's DMA queues. `perCore` 0 means one core: lanes are used as they are.
[[nodiscard]] constexpr std::uint16_t localLane(std::uint16_t lane, std::uint32_t perCore) {
    return perCore == 0 ? lane : static_cast<std::uint16_t>(lane % perCore);
}
[[nodiscard]] constexpr std::uint32_t laneCore(std::uint16_t lane, std::uint32_t perCore) {
    return perCore == 0 ? 0 : lane / perCore;
}

/// A timeline lane number with its meaning (as heaptrack's `Index<T>`): a compute lane of `Lane` or DMA queue
/// `queue()`, on core `core()` when the run has several (then `perCore` is SimResult::lanesPerCore). The timeline
/// stores lanes as raw 16-bit numbers in its compact arrays; code that asks what a lane is wraps the number in a
/// LaneId instead of comparing it with kComputeLanes or 5.
class LaneId {
public:
    constexpr LaneId() = default;
    constexpr explicit LaneId(std::uint16_t value, std::uint32_t perCore = 0) : m_value(value), m_perCore(perCore) {}
    constexpr LaneId(Lane lane) : m_value(static_cast<std::uint16_t>(lane)) {} // NOLINT: a Lane is a LaneId
    [[nodiscard]] static constexpr LaneId dma(std::uint32_t queue) { return LaneId(dmaLane(queue)); }

    [[nodiscard]] constexpr std::uint16_t value() const { return m_value; }
    /// The same lane on a one-core layout (core 0's number).
    [[nodiscard]] constexpr std::uint16_t local() const { return localLane(m_value, m_perCore); }
    [[nodiscard]] constexpr std::uint32_t core() const { return laneCore(m_value, m_perCore); }
    [[nodiscard]] constexpr bool isDma() const { return local() >= kComputeLanes; }
    [[nodiscard]] constexpr bool isCompute() const { return !isDma(); }
    /// The DMA queue of a DMA lane (0 for a compute lane).
    [[nodiscard]] constexpr std::uint32_t queue() const { return isDma() ? local() - kComputeLanes : 0U; }
    [[nodiscard]] constexpr bool operator==(const LaneId& o) const { return m_value == o.m_value; }

private:
    std::uint16_t m_value = 0;
    std::uint32_t m_perCore = 0;
};

[[nodiscard]] constexpr bool isComputeLane(std::uint16_t lane, std::uint32_t perCore) {
    return LaneId(lane, perCore).isCompute();
}
/// laneName with the core in front when there are several ("c1.vector"); the plain name for one core.
[[nodiscard]] std::string laneName(std::uint16_t lane, std::uint32_t perCore);

/// Why an instruction started when it did: the latest of the constraints on it.
enum class WaitCause : std::uint8_t {
    None,         ///< nothing held it: it started at time 0 on an idle unit
    Dependency,   ///< waited for the instruction in `waitOn` (RAW/WAR/WAW on an overlapping region)
    Engine,       ///< its engine was still busy with the previous instruction in program order
    DmaQueue,     ///< its DMA queue was still busy with the previous transfer
    SbufCapacity, ///< a tile it writes first had no room in SBUF until then
    PsumCapacity, ///< a tile it writes first had no room in PSUM until then
    Spill,        ///< it waited for a tile of its own to come back from HBM, or for room a spill made
    Count
};
[[nodiscard]] std::string_view waitCauseName(WaitCause cause);

/// What a DMA transfer is for: one of the kernel's own (`dma_copy` instructions), or traffic the simulator adds
/// when the live tiles do not fit on chip: a tile written out to HBM (spill) and read back before its next use
/// (reload). Spill and reload transfers are not IR instructions; they go through the same queues and bandwidth.
enum class DmaKind : std::uint8_t { Program, Spill, Reload };
[[nodiscard]] std::string_view dmaKindName(DmaKind kind);

} // namespace kl::sim
