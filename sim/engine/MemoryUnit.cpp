#include "engine/MemoryUnit.h"

#include <algorithm>

namespace kl::sim {

MemoryUnit::MemoryUnit(std::int64_t capacityPartitionBytes) : m_capacity(capacityPartitionBytes) {}

MemoryUnit::Fit MemoryUnit::earliestFit(std::int64_t partitionBytes, TimePs notBefore) {
    const std::int64_t limit = m_capacity - m_openBytes - partitionBytes;
    if (limit < 0) {
        return {notBefore, true};
    }
    if (m_maxBound <= limit) {
        return {notBefore, false};
    }
    settle();
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
    // Equal times are kept as separate entries (a step of 0 net change is harmless for the scan).
    if (start <= m_watermark) {
        m_baseBytes += partitionBytes;
    } else {
        m_steps.emplace_back(start, partitionBytes);
    }
    m_steps.emplace_back(end, -partitionBytes);
}

void MemoryUnit::settle() {
    if (m_sorted == m_steps.size()) {
        return;
    }
    const auto earlier = [](const Step& a, const Step& b) { return a.first < b.first; };
    std::stable_sort(m_steps.begin() + static_cast<std::ptrdiff_t>(m_sorted), m_steps.end(), earlier);
    // Merge: the tail lands near the end of the sorted part (time moves forward), so only the sorted
    // steps after the tail's first time move. Sorted steps go first on equal times.
    const auto first =
        std::upper_bound(m_steps.begin() + static_cast<std::ptrdiff_t>(m_head),
                         m_steps.begin() + static_cast<std::ptrdiff_t>(m_sorted), m_steps[m_sorted], earlier);
    const auto from = static_cast<std::size_t>(first - m_steps.begin());
    if (from < m_sorted) {
        m_scratch.assign(first, m_steps.begin() + static_cast<std::ptrdiff_t>(m_sorted));
        std::size_t a = 0;
        std::size_t b = m_sorted;
        std::size_t out = from;
        while (a < m_scratch.size() && b < m_steps.size()) {
            m_steps[out++] = earlier(m_steps[b], m_scratch[a]) ? m_steps[b++] : m_scratch[a++];
        }
        while (a < m_scratch.size()) {
            m_steps[out++] = m_scratch[a++];
        }
    }
    m_sorted = m_steps.size();
}

void MemoryUnit::advance(TimePs watermark) {
    if (watermark <= m_watermark) {
        return;
    }
    m_watermark = watermark;
    // Fold every step at or before the watermark into the base: the sorted part from its head, the tail
    // by a pass that keeps the rest in order. The tail is sorted only when a scan needs it (or when it
    // grows long), so most steps are folded without ever being sorted.
    while (m_head < m_sorted && m_steps[m_head].first <= watermark) {
        m_baseBytes += m_steps[m_head].second;
        ++m_head;
    }
    std::size_t kept = m_sorted;
    for (std::size_t i = m_sorted; i < m_steps.size(); ++i) {
        if (m_steps[i].first <= watermark) {
            m_baseBytes += m_steps[i].second;
        } else {
            m_steps[kept++] = m_steps[i];
        }
    }
    m_steps.resize(kept);
    if (m_steps.size() - m_sorted > kMaxTail) {
        settle();
    }
    if (m_head > 1024 && m_head * 2 > m_steps.size()) {
        m_steps.erase(m_steps.begin(), m_steps.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_sorted -= m_head;
        m_head = 0;
    }
}

} // namespace kl::sim
