#include "listeners/WaitCauseAnalysis.h"

#include "ir/KernelIr.h"

#include <algorithm>
#include <bit>

namespace kl::sim {

namespace {

/// Recent instructions whose tallies are kept in place; a power of two (slots by mask).
constexpr std::uint32_t kWindow = 1u << 16;

} // namespace

void WaitCauseAnalysis::onStart(const KernelIr& ir, const HardwareProfile&) {
    m_stats = {};
    m_instructions = static_cast<std::uint32_t>(ir.instructions().size());
    const std::uint32_t size = std::bit_ceil(std::clamp<std::uint32_t>(m_instructions, 1, kWindow));
    m_stall.assign(size, 0);
    m_waiters.assign(size, 0);
    m_base = 0;
    m_left = {};
    m_late = {};
}

void WaitCauseAnalysis::slideTo(std::uint32_t index) {
    const auto size = static_cast<std::uint32_t>(m_stall.size());
    const std::uint32_t base = index - size + 1;
    // The tallies of [m_base, base) leave; beyond one window's worth of them there are none (never in the window).
    const std::uint32_t end = base - m_base > size ? m_base + size : base;
    for (std::uint32_t i = m_base; i < end; ++i) {
        const std::uint32_t slot = i & (size - 1);
        if (m_waiters[slot] != 0) {
            m_left.push({i, m_waiters[slot], m_stall[slot]});
            m_waiters[slot] = 0;
            m_stall[slot] = 0;
        }
    }
    m_base = base;
}

void WaitCauseAnalysis::record(const InstructionEvent& e) {
    const auto c = static_cast<std::size_t>(e.cause);
    ++m_stats.count[c];
    m_stats.stallPs[c] += e.stall;
    if (e.cause != WaitCause::Dependency || e.waitOn >= m_instructions) {
        return;
    }
    if (e.waitOn < m_base) [[unlikely]] {
        m_late.push_back({e.waitOn, 1, e.stall});
        return;
    }
    if (e.waitOn - m_base >= m_stall.size()) {
        slideTo(e.waitOn);
    }
    const std::size_t slot = e.waitOn & (m_stall.size() - 1);
    ++m_waiters[slot];
    m_stall[slot] += e.stall;
}

void WaitCauseAnalysis::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void WaitCauseAnalysis::finish(SimResult& result) {
    // Everything still in the window leaves it; the late waits join their instructions' tallies.
    for (std::uint32_t i = m_base; i < m_instructions && i - m_base < m_stall.size(); ++i) {
        const std::size_t slot = i & (m_stall.size() - 1);
        if (m_waiters[slot] != 0) {
            m_left.push({i, m_waiters[slot], m_stall[slot]});
        }
    }
    WaitTallies::Cursor l(m_left); // blocks are never empty: one is added only to take a tally
    std::vector<WaitTally> late = std::move(m_late);
    m_late = {};
    std::ranges::sort(late, {}, &WaitTally::index);
    // Full order (stall, then index): ties never depend on anything but the program. The ten best are
    // kept in order while scanning (no list of every waited-on instruction).
    const auto byStall = [](const auto& a, const auto& b) {
        return a.stallPs != b.stallPs ? a.stallPs > b.stallPs : a.index < b.index;
    };
    constexpr std::size_t kKeep = 10;
    std::vector<WaitCauseStats::Blocker> all;
    all.reserve(kKeep + 1);
    const auto offer = [&](const WaitCauseStats::Blocker& b) {
        if (all.size() == kKeep && !byStall(b, all.back())) {
            return;
        }
        all.insert(std::upper_bound(all.begin(), all.end(), b, byStall), b);
        if (all.size() > kKeep) {
            all.pop_back();
        }
    };
    // Both lists are by index: merge them, adding up the tallies of one instruction.
    auto k = late.begin();
    while (!l.done() || k != late.end()) {
        const std::uint32_t index = k == late.end() || (!l.done() && l->index <= k->index) ? l->index : k->index;
        WaitCauseStats::Blocker b{index, 0, 0};
        for (; !l.done() && l->index == index; l.next()) {
            b.waiters += l->waiters;
            b.stallPs += l->stall;
        }
        for (; k != late.end() && k->index == index; ++k) {
            b.waiters += k->waiters;
            b.stallPs += k->stall;
        }
        offer(b);
    }
    m_left = {};
    m_stats.topBlockers = std::move(all);
    result.waits = std::move(m_stats);
    m_stall = {};
    m_waiters = {};
}

} // namespace kl::sim
