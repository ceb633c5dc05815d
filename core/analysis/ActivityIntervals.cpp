#include "analysis/ActivityIntervals.h"

#include "engine/SimTypes.h"

#include <algorithm>

namespace kl::core {

using sim::TimePs;

namespace {

Intervals merge(Intervals raw) {
    std::sort(raw.begin(), raw.end());
    Intervals out;
    for (const auto& [s, e] : raw) {
        if (e <= s) {
            continue;
        }
        if (!out.empty() && s <= out.back().second) {
            out.back().second = std::max(out.back().second, e);
        } else {
            out.emplace_back(s, e);
        }
    }
    return out;
}

} // namespace

Intervals computeBusy(const sim::SimResult& result) {
    const auto& tl = result.timeline;
    Intervals raw;
    raw.reserve(tl.size() + tl.lsCount());
    for (std::size_t k = 0; k < tl.lsCount(); ++k) {
        raw.emplace_back(tl.lsStartPs(k), tl.lsEndPs(k));
    }
    for (std::size_t i = 0; i < tl.size(); ++i) {
        if (result.isComputeLane(tl.lane(i))) {
            raw.emplace_back(tl.mainStartPs(i), tl.endPs(i));
        }
    }
    return merge(std::move(raw));
}

Intervals dmaBusy(const sim::SimResult& result) {
    const auto& tl = result.timeline;
    Intervals raw;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        if (!result.isComputeLane(tl.lane(i))) {
            raw.emplace_back(tl.mainStartPs(i), tl.endPs(i));
        }
    }
    return merge(std::move(raw));
}

Intervals subtract(const Intervals& a, const Intervals& b) {
    Intervals out;
    std::size_t j = 0;
    for (auto [s, e] : a) {
        while (j < b.size() && b[j].second <= s) {
            ++j;
        }
        for (std::size_t k = j; k < b.size() && b[k].first < e; ++k) {
            if (b[k].first > s) {
                out.emplace_back(s, b[k].first);
            }
            s = std::max(s, b[k].second);
        }
        if (s < e) {
            out.emplace_back(s, e);
        }
    }
    return out;
}

TimePs totalLength(const Intervals& intervals) {
    TimePs total = 0;
    for (const auto& [s, e] : intervals) {
        total += e - s;
    }
    return total;
}

} // namespace kl::core
