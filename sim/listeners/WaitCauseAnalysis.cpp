#include "listeners/WaitCauseAnalysis.h"

#include "ir/KernelIr.h"

#include <algorithm>

namespace kl::sim {

void WaitCauseAnalysis::onStart(const KernelIr& ir, const HardwareProfile&) {
    m_stats = {};
    m_waiters.assign(ir.instructions().size(), 0);
    m_stall.assign(ir.instructions().size(), 0);
}

void WaitCauseAnalysis::record(const InstructionEvent& e) {
    const auto c = static_cast<std::size_t>(e.cause);
    ++m_stats.count[c];
    m_stats.stallPs[c] += e.stall;
    if (e.cause == WaitCause::Dependency && e.waitOn < m_waiters.size()) {
        ++m_waiters[e.waitOn];
        m_stall[e.waitOn] += e.stall;
    }
}

void WaitCauseAnalysis::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void WaitCauseAnalysis::finish(SimResult& result) {
    std::vector<WaitCauseStats::Blocker> all;
    for (std::size_t i = 0; i < m_waiters.size(); ++i) {
        if (m_waiters[i] > 0) {
            all.push_back({static_cast<std::uint32_t>(i), m_waiters[i], m_stall[i]});
        }
    }
    // Full order (stall, then index): ties never depend on anything but the program.
    const auto byStall = [](const auto& a, const auto& b) {
        return a.stallPs != b.stallPs ? a.stallPs > b.stallPs : a.index < b.index;
    };
    const std::size_t keep = std::min<std::size_t>(all.size(), 10);
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(), byStall);
    all.resize(keep);
    m_stats.topBlockers = std::move(all);
    result.waits = std::move(m_stats);
    m_waiters = {};
    m_stall = {};
}

} // namespace kl::sim
