#pragma once

#include "engine/SimTypes.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kl::sim {

/// One waited-on instruction's tally: how many instructions waited on it and for how long in all.
struct WaitTally {
    std::uint32_t index = 0;
    std::uint32_t waiters = 0; ///< fewer than 2^32: instructions are at most 2^26 (IrLimits)
    TimePs stall = 0;
};

/// WaitCauseAnalysis's tallies of instructions that left its window, appended in increasing index order and read
/// back once, in order, at the end. A third of a kernel's instructions are waited on, so each is packed into 8 bytes
/// (index step from the previous 16 bits, waiters 8, stall 40: 1.1 s); one that does not fit is marked and kept whole
/// in a side list. Appended in blocks of 512 KiB, never moved: no growth by doubling, and blocks the allocator maps
/// and unmaps whole.
class WaitTallies {
public:
    void push(const WaitTally& t) {
        const std::uint64_t step = t.index - m_last;
        const bool fits = (m_count == 0 || t.index > m_last) && step < kEscape && t.waiters < (1u << kWaiterBits) &&
                          t.stall >= 0 && t.stall < (TimePs{1} << kStallBits);
        std::uint64_t packed = kEscape;
        if (fits) [[likely]] {
            packed = step | std::uint64_t{t.waiters} << kStepBits |
                     static_cast<std::uint64_t>(t.stall) << (kStepBits + kWaiterBits);
        } else {
            m_whole.push_back(t);
        }
        if (m_blocks.empty() || m_blocks.back().size() == kBlock) {
            m_blocks.emplace_back().reserve(kBlock);
        }
        m_blocks.back().push_back(packed);
        m_last = t.index;
        ++m_count;
    }
    [[nodiscard]] std::size_t size() const { return m_count; }

    /// Reads the tallies in order where they are (no copy of them all at the end, when memory peaks).
    class Cursor {
    public:
        explicit Cursor(const WaitTallies& t) : m_t(&t) { decode(); }
        [[nodiscard]] bool done() const { return m_block >= m_t->m_blocks.size(); }
        [[nodiscard]] const WaitTally& operator*() const { return m_current; }
        [[nodiscard]] const WaitTally* operator->() const { return &m_current; }
        void next() {
            if (++m_at == m_t->m_blocks[m_block].size()) {
                ++m_block;
                m_at = 0;
            }
            decode();
        }

    private:
        void decode() {
            if (done()) {
                return;
            }
            const std::uint64_t packed = m_t->m_blocks[m_block][m_at];
            if ((packed & kStepMask) == kEscape) {
                m_current = m_t->m_whole[m_whole++];
                return;
            }
            m_current.index += static_cast<std::uint32_t>(packed & kStepMask);
            m_current.waiters = static_cast<std::uint32_t>((packed >> kStepBits) & ((1u << kWaiterBits) - 1));
            m_current.stall = static_cast<TimePs>(packed >> (kStepBits + kWaiterBits));
        }

        const WaitTallies* m_t;
        std::size_t m_block = 0;
        std::size_t m_at = 0;
        std::size_t m_whole = 0;
        WaitTally m_current; ///< index 0 before the first: the first step is its index
    };

private:
    static constexpr int kStepBits = 16;
    static constexpr int kWaiterBits = 8;
    static constexpr int kStallBits = 64 - kStepBits - kWaiterBits;
    static constexpr std::uint64_t kStepMask = (std::uint64_t{1} << kStepBits) - 1;
    static constexpr std::uint64_t kEscape = kStepMask; ///< the step field of a tally kept whole in m_whole
    static constexpr std::size_t kBlock = std::size_t{1} << 16;

    std::vector<std::vector<std::uint64_t>> m_blocks;
    std::vector<WaitTally> m_whole;
    std::uint32_t m_last = 0;
    std::size_t m_count = 0;
};

} // namespace kl::sim
