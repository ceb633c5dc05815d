#pragma once

#include "engine/SimTypes.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace kl::sim {

/// Capacity of one on-chip memory (SBUF or PSUM) over simulated time, counted in bytes per partition.
///
/// A tile is *open* from the moment its first writer starts until its last user in program order has
/// been scheduled; then it is *closed* with the end time of its last access. Because the Pipeline
/// schedules in program order while engines run out of step, an open tile's end is unknown, so it is
/// treated as occupying its room for all time until closed. `earliestFit` finds the first time from
/// which the closed tiles plus the open ones plus the new one stay within capacity. If even the open
/// tiles alone leave no room, the tile can never fit (the kernel's working set is too large: the
/// compiler would spill); it is placed anyway and reported as an overflow.
///
/// Past `advance(watermark)` no query can ask about earlier times, so older steps fold into a base
/// value and the step map stays as small as the set of tiles alive around the engines' current time.
class MemoryUnit {
public:
    explicit MemoryUnit(std::int64_t capacityPartitionBytes);

    struct Fit {
        TimePs time = 0;
        bool overflow = false;
    };
    [[nodiscard]] Fit earliestFit(std::int64_t partitionBytes, TimePs notBefore);
    void open(std::int64_t partitionBytes);
    void close(std::int64_t partitionBytes, TimePs start, TimePs end);
    void advance(TimePs watermark);
    [[nodiscard]] std::int64_t capacity() const { return m_capacity; }

private:
    std::int64_t m_capacity;
    std::int64_t m_openBytes = 0;
    std::int64_t m_baseBytes = 0; ///< closed tiles still live at the watermark
    TimePs m_watermark = 0;
    /// Closed tiles: +bytes at start, -bytes at end, for times after the watermark. [m_head, m_sorted) is
    /// sorted by time (equal times in the order they were added); [m_sorted, end) holds the steps added
    /// since, in order, and is merged in only when a scan needs the order (most fits are answered by
    /// m_maxBound without one); folding at the watermark takes tail steps out without sorting them. A vector, not a
    /// map: the scan is contiguous and folding at the watermark just moves m_head.
    using Step = std::pair<TimePs, std::int64_t>;
    std::vector<Step> m_steps;
    std::size_t m_head = 0;
    std::size_t m_sorted = 0;
    std::vector<Step> m_scratch; ///< reused by settle()
    /// An upper bound of the closed tiles' usage at any time after the watermark: exact after each scan,
    /// raised by every close. When it leaves room, earliestFit answers without scanning.
    std::int64_t m_maxBound = 0;
    /// Past this many unsorted steps, advance() sorts them in (its pass over the tail stays short).
    static constexpr std::size_t kMaxTail = 512;
    /// Merges the unsorted tail into the sorted part (stable: as if each step had been inserted after
    /// the steps of equal time already there).
    void settle();
};

} // namespace kl::sim
