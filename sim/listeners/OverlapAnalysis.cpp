#include "listeners/OverlapAnalysis.h"

#include <algorithm>

namespace kl::sim {

void OverlapAnalysis::onStart(const KernelIr&, const HardwareProfile&) {
    m_compute.clear();
    m_dma.clear();
}

void OverlapAnalysis::onInstruction(const InstructionEvent& e) {
    if (e.engine == Engine::Dma) {
        m_dma.emplace_back(e.start, e.end);
        return;
    }
    if (e.lsStart >= 0) {
        m_compute.emplace_back(e.lsStart, e.lsEnd);
    }
    m_compute.emplace_back(e.mainStart, e.end);
}

TimePs OverlapAnalysis::mergeUnion(Intervals& v) {
    std::sort(v.begin(), v.end());
    std::size_t out = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i].second <= v[i].first) {
            continue;
        }
        if (out > 0 && v[i].first <= v[out - 1].second) {
            v[out - 1].second = std::max(v[out - 1].second, v[i].second);
        } else {
            v[out++] = v[i];
        }
    }
    v.resize(out);
    TimePs total = 0;
    for (const auto& [a, b] : v) {
        total += b - a;
    }
    return total;
}

TimePs OverlapAnalysis::intersection(const Intervals& a, const Intervals& b) {
    TimePs total = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const TimePs lo = std::max(a[i].first, b[j].first);
        const TimePs hi = std::min(a[i].second, b[j].second);
        total += std::max<TimePs>(0, hi - lo);
        (a[i].second < b[j].second ? i : j)++;
    }
    return total;
}

void OverlapAnalysis::finish(SimResult& result) {
    OverlapStats s;
    s.computeActivePs = mergeUnion(m_compute);
    s.dmaActivePs = mergeUnion(m_dma);
    s.overlapPs = intersection(m_compute, m_dma);
    s.dmaExposedPs = s.dmaActivePs - s.overlapPs;
    result.overlap = s;
    m_compute = {};
    m_dma = {};
}

} // namespace kl::sim
