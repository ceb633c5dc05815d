#pragma once

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace kl::sim {

/// Visits the elements of several lists, each already sorted by `key`, in overall key order (ties: lower
/// list index first, so the order is deterministic). Lanes and DMA queues run in order, so their
/// records arrive sorted per lane; a heap merge of a handful of lanes reads every record once, in
/// sequence, which is cheaper than sorting everything.
///
/// Keys are non-negative integers (simulated times) below 2^(64 - bits for the list index). A heap entry
/// packs the key and the list index into one 64-bit integer, so the order (key, list) is one integer
/// comparison; the root is replaced and sifted down once per element, and a list that stays ahead of
/// every other head is drained without touching the heap.
template <typename T, typename Key, typename Visit>
void mergeSorted(const std::vector<std::span<const T>>& lists, Key key, Visit visit) {
    const auto listBits = static_cast<unsigned>(std::bit_width(lists.size()));
    const std::uint64_t listMask = (std::uint64_t{1} << listBits) - 1;
    const auto pack = [&](const T& item, std::size_t list) {
        const auto k = static_cast<std::uint64_t>(key(item));
        assert(k >> (64 - listBits) == 0);
        return (k << listBits) | list;
    };
    std::vector<std::uint64_t> heap;
    std::vector<std::size_t> next(lists.size(), 0);
    for (std::size_t l = 0; l < lists.size(); ++l) {
        if (!lists[l].empty()) {
            heap.push_back(pack(lists[l][0], l));
        }
    }
    // Min-heap: heap[p] <= heap[2p + 1], heap[2p + 2].
    const auto siftDown = [&heap](std::size_t pos) {
        const std::uint64_t value = heap[pos];
        const std::size_t n = heap.size();
        for (;;) {
            std::size_t child = 2 * pos + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && heap[child + 1] < heap[child]) {
                ++child;
            }
            if (heap[child] >= value) {
                break;
            }
            heap[pos] = heap[child];
            pos = child;
        }
        heap[pos] = value;
    };
    for (std::size_t p = heap.size() / 2; p-- > 0;) {
        siftDown(p);
    }
    constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
    while (!heap.empty()) {
        const std::size_t l = heap[0] & listMask;
        const std::span<const T> list = lists[l];
        std::size_t& i = next[l];
        // The smallest other head is one of the root's children.
        std::uint64_t bound = heap.size() > 1 ? heap[1] : kNone;
        if (heap.size() > 2 && heap[2] < bound) {
            bound = heap[2];
        }
        do {
            visit(list[i++]);
        } while (i < list.size() && pack(list[i], l) < bound);
        if (i < list.size()) {
            heap[0] = pack(list[i], l);
        } else {
            heap[0] = heap.back();
            heap.pop_back();
            if (heap.empty()) {
                break;
            }
        }
        siftDown(0);
    }
}

/// The same over whole vectors.
template <typename T, typename Key, typename Visit>
void mergeSorted(const std::vector<std::vector<T>>& lists, Key key, Visit visit) {
    std::vector<std::span<const T>> spans(lists.begin(), lists.end());
    mergeSorted(spans, key, visit);
}

} // namespace kl::sim
