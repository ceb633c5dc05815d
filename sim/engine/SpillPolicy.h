#pragma once

#include "ir/KernelIr.h"

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace kl::sim {

/// Which live tile leaves SBUF or PSUM when a new one does not fit: the compiler's spill decision.
///
/// Keeps the set of resident tiles per on-chip memory from the first spill on: the Pipeline hands it the tiles
/// open then (`track`), and afterwards tells it when a tile becomes resident and when it stops being so (freed
/// after its last use, or spilled). A kernel that never spills pays one branch per tile, nothing more (tracking
/// every tile from the start cost kl_bench_sim 1.3 % more instructions executed, measured with callgrind). `victim()`
/// returns the resident tile whose next use in program order is furthest away (Belady's rule, which a compiler can
/// apply because it sees the whole unrolled program; docs/simulator.md "Spills" says why this and not LRU), ties to the
/// lower buffer id so that runs are deterministic. Tiles the current instruction uses are never chosen.
///
/// The next-use index (every on-chip buffer's uses in program order) is built on the first spill only, so
/// a kernel that fits pays nothing but the resident-set bookkeeping.
class SpillPolicy {
public:
    void reset(std::size_t bufferCount);
    /// Whether resident() and evicted() must be called (from the first spill on).
    [[nodiscard]] bool tracking() const { return m_tracking; }
    /// Starts tracking with the tiles resident now, as (buffer, memory) pairs.
    void track(std::span<const std::pair<std::uint32_t, Memory>> residentNow);
    /// `buffer` in `memory` (SBUF or PSUM) now holds room on chip.
    void resident(std::uint32_t buffer, Memory memory);
    /// `buffer` no longer holds room (freed or spilled).
    void evicted(std::uint32_t buffer, Memory memory);
    /// The resident tile of `memory` to spill to make room for instruction `index` (`in`), or kNoIndex when
    /// every resident tile is one `in` uses.
    [[nodiscard]] std::uint32_t victim(const KernelIr& ir, const Instruction& in, std::uint32_t index, Memory memory);

private:
    void buildNextUse(const KernelIr& ir);
    /// The first instruction after `index` that uses `buffer` (kNoIndex if none).
    [[nodiscard]] std::uint32_t nextUse(std::uint32_t buffer, std::uint32_t index) const;

    std::array<std::vector<std::uint32_t>, 2> m_resident; ///< per on-chip memory (Sbuf, Psum), unordered
    std::vector<std::uint32_t> m_slot;                    ///< per buffer: its position in m_resident, or kNoIndex
    std::size_t m_bufferCount = 0;
    bool m_tracking = false;
    bool m_indexed = false;
    std::vector<std::uint32_t> m_useBegin; ///< per buffer + 1: where its uses start in m_uses
    std::vector<std::uint32_t> m_uses;     ///< instruction indices, ascending per buffer
};

} // namespace kl::sim
