#include "listeners/WaitCauseAnalysis.h"

#include <algorithm>

namespace kl::sim {

void WaitCauseAnalysis::onStart(const KernelIr&, const HardwareProfile&) {
    m_stats = {};
    m_blockers.clear();
}

void WaitCauseAnalysis::onInstruction(const InstructionEvent& e) {
    const auto c = static_cast<std::size_t>(e.cause);
    ++m_stats.count[c];
    m_stats.stallPs[c] += e.stall;
    if (e.cause == WaitCause::Dependency && e.waitOn != kNoIndex) {
        auto& b = m_blockers[e.waitOn];
        b.index = e.waitOn;
        ++b.waiters;
        b.stallPs += e.stall;
    }
}

void WaitCauseAnalysis::finish(SimResult& result) {
    std::vector<WaitCauseStats::Blocker> all;
    all.reserve(m_blockers.size());
    for (const auto& [index, b] : m_blockers) {
        all.push_back(b);
    }
    // Full order (stall, then index) so that the hash map's iteration order never shows.
    const auto byStall = [](const auto& a, const auto& b) { return a.stallPs != b.stallPs ? a.stallPs > b.stallPs : a.index < b.index; };
    const std::size_t keep = std::min<std::size_t>(all.size(), 10);
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(), byStall);
    all.resize(keep);
    m_stats.topBlockers = std::move(all);
    result.waits = std::move(m_stats);
    m_blockers.clear();
}

} // namespace kl::sim
