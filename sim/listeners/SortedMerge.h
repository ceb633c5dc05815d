#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace kl::sim {

/// Visits the elements of several lists, each already sorted by `key`, in overall key order (ties: lower
/// list index first, so the order is deterministic). Lanes and DMA queues run in order, so their
/// records arrive sorted per lane; a heap merge of a handful of lanes is much cheaper than a sort.
template <typename T, typename Key, typename Visit>
void mergeSorted(const std::vector<std::vector<T>>& lists, Key key, Visit visit) {
    using K = decltype(key(std::declval<const T&>()));
    using Head = std::pair<K, std::size_t>; // (key of the list's next element, list index)
    std::vector<Head> heap;
    std::vector<std::size_t> next(lists.size(), 0);
    for (std::size_t l = 0; l < lists.size(); ++l) {
        if (!lists[l].empty()) {
            heap.emplace_back(key(lists[l][0]), l);
        }
    }
    const auto later = std::greater<Head>{}; // min-heap on (key, list)
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const std::size_t l = heap.back().second;
        // Drain this list while it stays ahead of every other head (the common case: long runs).
        const Head* other = heap.size() > 1 ? &heap.front() : nullptr;
        do {
            visit(lists[l][next[l]++]);
        } while (next[l] < lists[l].size() && (other == nullptr || Head{key(lists[l][next[l]]), l} < *other));
        if (next[l] < lists[l].size()) {
            heap.back() = Head{key(lists[l][next[l]]), l};
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
    }
}

} // namespace kl::sim
