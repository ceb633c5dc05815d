#pragma once

#include "engine/SimTypes.h"
#include "ir/KernelIr.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kl::sim {

/// A rectangle of a buffer: partitions [partLo, partHi) x bytes [byteLo, byteHi) inside each partition.
/// HBM buffers use a single partition and the flat byte interval.
struct Region {
    std::int64_t byteLo = 0;
    std::int64_t byteHi = 0;
    std::uint16_t partLo = 0;
    std::uint16_t partHi = 1;
    [[nodiscard]] bool overlaps(const Region& o) const {
        return partLo < o.partHi && o.partLo < partHi && byteLo < o.byteHi && o.byteLo < byteHi;
    }
    [[nodiscard]] bool contains(const Region& o) const {
        return partLo <= o.partLo && o.partHi <= partHi && byteLo <= o.byteLo && o.byteHi <= byteHi;
    }
};

/// The bounding box of an access pattern (strided accesses are over-approximated by their extent).
[[nodiscard]] Region regionOf(const KernelIr& ir, const AccessPattern& ap);
/// The same from the buffer's element size and memory, for callers that keep those at hand.
[[nodiscard]] inline Region regionOf(const KernelIr& ir, const AccessPattern& ap, std::int64_t dtypeBytes, bool hbm) {
    const ElementRange r = elementRange(ir, ap);
    const std::int64_t eb = std::max<std::int64_t>(dtypeBytes, 1);
    Region out{r.lo * eb, r.hi * eb, 0, 1};
    if (!hbm) {
        out.partLo = ap.partStart;
        out.partHi = static_cast<std::uint16_t>(ap.partStart + std::max<std::uint16_t>(ap.partCount, 1));
    }
    return out;
}

/// Tracks, per buffer, the recent reads and writes with the time they finish, and answers "when may an
/// access to this region start": a read waits for overlapping writes (RAW), a write for overlapping
/// reads and writes (WAR, WAW) — the semaphores between engines in hardware.
///
/// Lists stay short: a write that covers an older access replaces it (the new write already waits for
/// it, so it ends later), a read that covers an older read with an earlier end replaces it, and past
/// kMaxRecords all but the newest kKeepRecent collapse into one bounding read and one bounding write,
/// each with the latest end (more conservative, never less).
class DependencyTracker {
public:
    struct Ready {
        TimePs time = 0;
        std::uint32_t instr = kNoIndex; ///< the access that finishes last, kNoIndex if none
    };

    void reset(std::size_t bufferCount);
    /// Earliest start for an access of `region` in `buffer`; folds into `ready` (max, first wins ties).
    void query(std::uint32_t buffer, const Region& region, bool isWrite, Ready& ready) const;
    void record(std::uint32_t buffer, const Region& region, bool isWrite, TimePs end, std::uint32_t instr);
    /// Drops a buffer's records once it is freed (a new tile in the same place is a new buffer in the IR).
    void release(std::uint32_t buffer);

private:
    static constexpr std::size_t kMaxRecords = 24;
    static constexpr std::size_t kKeepRecent = 8;
    struct Record {
        Region region;
        TimePs end = 0;
        std::uint32_t instr = 0;
        bool write = false;
    };
    /// Per buffer, its list in m_lists (kNoIndex before its first access and after its release): 4 bytes per
    /// buffer, and a list only for the buffers live now.
    std::vector<std::uint32_t> m_slot;
    std::vector<std::vector<Record>> m_lists;
    /// Lists of freed buffers, emptied and reused by new ones: a kernel allocates a fresh tile per loop
    /// iteration, and recycling the storage avoids a malloc/free pair per tile.
    std::vector<std::uint32_t> m_spare;
};

} // namespace kl::sim
