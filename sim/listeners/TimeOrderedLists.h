#pragma once

#include "engine/SimTypes.h"
#include "listeners/SortedMerge.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace kl::sim {

/// Steps recorded per lane (or DMA queue) that leave in time order while the run goes on. A lane runs in
/// order, so its steps nearly always arrive in time order; `drainBefore(t)` visits every step earlier
/// than `t` in (time, list) order — ties go to the lower list — and forgets them. Fed with the Pipeline's
/// watermark (SimListener::onWatermark: no later event is earlier), the lists hold only the steps of the
/// last few hundred instructions: they stay in cache, and the run never holds all its steps at once.
///
/// `TimeOf` gives a step's time (a non-negative integer, see mergeSorted).
template <typename Step, typename TimeOf> class TimeOrderedLists {
public:
    explicit TimeOrderedLists(TimeOf timeOf = {}) : m_timeOf(timeOf) {}

    void reset(std::size_t lists) { m_lists.assign(lists, {}); }
    [[nodiscard]] std::size_t size() const { return m_lists.size(); }

    void push(std::size_t list, const Step& step) {
        List& l = m_lists[list];
        if (l.items.size() > l.head && m_timeOf(l.items.back()) > m_timeOf(step)) {
            l.unsorted = true;
        }
        l.items.push_back(step);
    }
    /// The list's last step not yet drained, or nullptr.
    [[nodiscard]] Step* last(std::size_t list) {
        List& l = m_lists[list];
        return l.items.size() > l.head ? &l.items.back() : nullptr;
    }

    template <typename Visit> void drainBefore(TimePs limit, Visit visit) {
        m_spans.clear();
        for (List& l : m_lists) {
            const auto begin = l.items.begin() + static_cast<std::ptrdiff_t>(l.head);
            if (l.unsorted) {
                // Rare (a lane's frees out of step); only the undrained part, and stably: equal times keep
                // the order they arrived in.
                std::stable_sort(begin, l.items.end(),
                                 [this](const Step& a, const Step& b) { return m_timeOf(a) < m_timeOf(b); });
                l.unsorted = false;
            }
            const auto end =
                std::partition_point(begin, l.items.end(), [&](const Step& s) { return m_timeOf(s) < limit; });
            m_spans.emplace_back(std::to_address(begin), static_cast<std::size_t>(end - begin));
        }
        mergeSorted(m_spans, m_timeOf, visit);
        for (std::size_t i = 0; i < m_lists.size(); ++i) {
            List& l = m_lists[i];
            l.head += m_spans[i].size();
            if (l.head == l.items.size()) {
                l.items.clear(); // keeps the capacity: the next steps reuse the same (cached) memory
                l.head = 0;
            } else if (l.head > 1024 && l.head * 2 > l.items.size()) {
                l.items.erase(l.items.begin(), l.items.begin() + static_cast<std::ptrdiff_t>(l.head));
                l.head = 0;
            }
        }
    }
    template <typename Visit> void drainAll(Visit visit) { drainBefore(std::numeric_limits<TimePs>::max(), visit); }

private:
    struct List {
        std::vector<Step> items;
        std::size_t head = 0;  ///< items before it were drained
        bool unsorted = false; ///< [head, end) is out of time order
    };
    TimeOf m_timeOf;
    std::vector<List> m_lists;
    std::vector<std::span<const Step>> m_spans;
};

} // namespace kl::sim
