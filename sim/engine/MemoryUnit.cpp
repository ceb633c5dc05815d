#include "engine/MemoryUnit.h"

#include <algorithm>

namespace kl::sim {

MemoryUnit::MemoryUnit(std::int64_t capacityPartitionBytes) : m_capacity(capacityPartitionBytes) {}

MemoryUnit::Fit MemoryUnit::earliestFit(std::int64_t partitionBytes, TimePs notBefore) const {
    const std::int64_t limit = m_capacity - m_openBytes - partitionBytes;
    if (limit < 0) {
        return {notBefore, true};
    }
    if (m_maxBound <= limit) {
        return {notBefore, false};
    }
    // Usage is a step function; find the last step at which it exceeds `limit`: the tile fits from the
    // next step on.
    std::int64_t usage = m_baseBytes;
    std::int64_t maxUsage = usage;
    TimePs fitFrom = usage > limit ? m_watermark : TimePs{-1};
    bool violating = usage > limit;
    for (std::size_t i = m_head; i < m_steps.size(); ++i) {
        const auto& [time, delta] = m_steps[i];
        usage += delta;
        maxUsage = std::max(maxUsage, usage);
        if (usage > limit) {
            violating = true;
        } else if (violating) {
            fitFrom = time;
            violating = false;
        }
    }
    m_maxBound = maxUsage;
    if (violating) {
        return {notBefore, true}; // cannot happen once every closed tile has ended; kept as a guard
    }
    return {std::max(notBefore, fitFrom), false};
}

void MemoryUnit::open(std::int64_t partitionBytes) {
    m_openBytes += partitionBytes;
}

void MemoryUnit::close(std::int64_t partitionBytes, TimePs start, TimePs end) {
    m_openBytes -= partitionBytes;
    if (end <= m_watermark) {
        return;
    }
    m_maxBound += partitionBytes;
    if (start <= m_watermark) {
        m_baseBytes += partitionBytes;
    } else {
        addStep(start, partitionBytes);
    }
    addStep(end, -partitionBytes);
}

void MemoryUnit::addStep(TimePs time, std::int64_t delta) {
    // Equal times are kept as separate entries (a step of 0 net change is harmless for the scan).
    const auto pos = std::upper_bound(m_steps.begin() + static_cast<std::ptrdiff_t>(m_head), m_steps.end(), time,
                                      [](TimePs t, const auto& step) { return t < step.first; });
    m_steps.insert(pos, {time, delta});
}

void MemoryUnit::advance(TimePs watermark) {
    if (watermark <= m_watermark) {
        return;
    }
    m_watermark = watermark;
    while (m_head < m_steps.size() && m_steps[m_head].first <= watermark) {
        m_baseBytes += m_steps[m_head].second;
        ++m_head;
    }
    if (m_head > 1024 && m_head * 2 > m_steps.size()) {
        m_steps.erase(m_steps.begin(), m_steps.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
    }
}

} // namespace kl::sim
