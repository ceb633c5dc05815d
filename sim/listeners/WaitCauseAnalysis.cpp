#include "listeners/WaitCauseAnalysis.h"

#include "ir/KernelIr.h"

#include <algorithm>

namespace kl::sim {

void WaitCauseAnalysis::onStart(const KernelIr& ir, const HardwareProfile&) {
    m_stats = {};
    m_stall.assign(ir.instructions().size(), 0);
    m_waiters.assign(ir.instructions().size(), 0);
}

void WaitCauseAnalysis::record(const InstructionEvent& e) {
    const auto c = static_cast<std::size_t>(e.cause);
    ++m_stats.count[c];
    m_stats.stallPs[c] += e.stall;
    if (e.cause == WaitCause::Dependency && e.waitOn < m_stall.size()) {
        ++m_waiters[e.waitOn]; // fewer than 2^32: instructions are at most 2^26 (IrLimits)
        m_stall[e.waitOn] += e.stall;
    }
}

void WaitCauseAnalysis::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void WaitCauseAnalysis::finish(SimResult& result) {
    // Full order (stall, then index): ties never depend on anything but the program. The ten best are
    // kept in order while scanning (no list of every waited-on instruction).
    const auto byStall = [](const auto& a, const auto& b) {
        return a.stallPs != b.stallPs ? a.stallPs > b.stallPs : a.index < b.index;
    };
    constexpr std::size_t kKeep = 10;
    std::vector<WaitCauseStats::Blocker> all;
    all.reserve(kKeep + 1);
    for (std::size_t i = 0; i < m_stall.size(); ++i) {
        if (m_waiters[i] == 0) {
            continue;
        }
        const WaitCauseStats::Blocker b{static_cast<std::uint32_t>(i), m_waiters[i], m_stall[i]};
        if (all.size() == kKeep && !byStall(b, all.back())) {
            continue;
        }
        all.insert(std::upper_bound(all.begin(), all.end(), b, byStall), b);
        if (all.size() > kKeep) {
            all.pop_back();
        }
    }
    m_stats.topBlockers = std::move(all);
    result.waits = std::move(m_stats);
    m_stall = {};
    m_waiters = {};
}

} // namespace kl::sim
