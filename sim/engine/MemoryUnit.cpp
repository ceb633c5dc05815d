#include "engine/MemoryUnit.h"

#include <algorithm>

namespace kl::sim {

MemoryUnit::MemoryUnit(std::int64_t capacityPartitionBytes) : m_capacity(capacityPartitionBytes) {}

MemoryUnit::Fit MemoryUnit::earliestFit(std::int64_t partitionBytes, TimePs notBefore) const {
    const std::int64_t limit = m_capacity - m_openBytes - partitionBytes;
    if (limit < 0) {
        return {notBefore, true};
    }
    // Usage is a step function; find the last step at which it exceeds `limit`: the tile fits from the
    // next step on.
    std::int64_t usage = m_baseBytes;
    TimePs fitFrom = usage > limit ? m_watermark : TimePs{-1};
    bool violating = usage > limit;
    for (const auto& [time, delta] : m_steps) {
        usage += delta;
        if (usage > limit) {
            violating = true;
        } else if (violating) {
            fitFrom = time;
            violating = false;
        }
    }
    if (violating) {
        return {notBefore, true}; // cannot happen once every closed tile has ended; kept as a guard
    }
    return {std::max(notBefore, fitFrom), false};
}

void MemoryUnit::open(std::int64_t partitionBytes) { m_openBytes += partitionBytes; }

void MemoryUnit::close(std::int64_t partitionBytes, TimePs start, TimePs end) {
    m_openBytes -= partitionBytes;
    if (end <= m_watermark) {
        return;
    }
    if (start <= m_watermark) {
        m_baseBytes += partitionBytes;
    } else {
        m_steps[start] += partitionBytes;
    }
    m_steps[end] -= partitionBytes;
}

void MemoryUnit::advance(TimePs watermark) {
    if (watermark <= m_watermark) {
        return;
    }
    m_watermark = watermark;
    auto it = m_steps.begin();
    while (it != m_steps.end() && it->first <= watermark) {
        m_baseBytes += it->second;
        it = m_steps.erase(it);
    }
}

} // namespace kl::sim
