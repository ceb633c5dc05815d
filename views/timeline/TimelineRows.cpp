#include "timeline/TimelineRows.h"

#include <algorithm>

namespace kl::views {

using sim::Lane;

namespace {

constexpr std::uint16_t kLsLane = sim::LaneId(Lane::LoadStationary).value();

} // namespace

TimelineRows::TimelineRows(std::shared_ptr<const sim::SimResult> result) : m_result(std::move(result)) {
    const auto& tl = m_result->timeline;
    const std::uint16_t laneCount =
        static_cast<std::uint16_t>(std::max<std::uint32_t>(m_result->laneCount, sim::kComputeLanes));
    std::vector<Row> byLane(laneCount);
    for (std::uint16_t lane = 0; lane < laneCount; ++lane) {
        byLane[lane].name = sim::laneName(lane);
        byLane[lane].lane = lane;
        byLane[lane].kind =
            lane == kLsLane ? Kind::LoadStationary : (sim::LaneId(lane).isDma() ? Kind::DmaQueue : Kind::Engine);
    }
    for (std::uint32_t i = 0; i < tl.size(); ++i) {
        Row& row = byLane[tl.lane(i)];
        row.indices.push_back(i);
        row.longest = std::max(row.longest, tl.endPs(i) - tl.mainStartPs(i));
        m_end = std::max(m_end, tl.endPs(i));
    }
    for (std::size_t k = 0; k < tl.lsCount(); ++k) {
        byLane[kLsLane].longest = std::max(byLane[kLsLane].longest, tl.lsEndPs(k) - tl.lsStartPs(k));
    }
    // The union of every queue's busy time: what the collapsed DMA row shows.
    std::vector<std::pair<TimePs, TimePs>> dma;
    for (std::uint16_t lane = 0; lane < laneCount; ++lane) {
        const bool isDma = sim::LaneId(lane).isDma();
        if (!isDma || !byLane[lane].indices.empty()) {
            for (std::uint32_t i : byLane[lane].indices) {
                if (isDma) {
                    dma.emplace_back(tl.mainStartPs(i), tl.endPs(i));
                }
            }
            byLane[lane].indices.shrink_to_fit();
            m_allRows.push_back(std::move(byLane[lane]));
        }
    }
    std::sort(dma.begin(), dma.end());
    for (const auto& [s, e] : dma) {
        if (!m_dmaBusyEnd.empty() && s <= m_dmaBusyEnd.back()) {
            m_dmaBusyEnd.back() = std::max(m_dmaBusyEnd.back(), e);
        } else {
            m_dmaBusyStart.push_back(s);
            m_dmaBusyEnd.push_back(e);
        }
        m_dmaBusyLongest = std::max(m_dmaBusyLongest, m_dmaBusyEnd.back() - m_dmaBusyStart.back());
    }
    buildBusyPrefixes();
    rebuildVisibleRows();
}

void TimelineRows::buildBusyPrefixes() {
    const auto& tl = m_result->timeline;
    for (Row& row : m_allRows) {
        const bool ls = row.kind == Kind::LoadStationary;
        const std::size_t n = ls ? tl.lsCount() : row.indices.size();
        row.busyPrefix.assign(n + 1, 0);
        for (std::size_t k = 0; k < n; ++k) {
            const TimePs busy =
                ls ? tl.lsEndPs(k) - tl.lsStartPs(k) : tl.endPs(row.indices[k]) - tl.mainStartPs(row.indices[k]);
            row.busyPrefix[k + 1] = row.busyPrefix[k] + busy;
        }
    }
    m_dmaBusyPrefix.assign(m_dmaBusyStart.size() + 1, 0);
    for (std::size_t k = 0; k < m_dmaBusyStart.size(); ++k) {
        m_dmaBusyPrefix[k + 1] = m_dmaBusyPrefix[k] + (m_dmaBusyEnd[k] - m_dmaBusyStart[k]);
    }
}

const std::vector<TimePs>& TimelineRows::busyPrefix(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->busyPrefix : m_dmaBusyPrefix;
}

TimePs TimelineRows::busyPs(std::size_t row, TimePs t0, TimePs t1) const {
    if (row >= m_visible.size() || t1 <= t0) {
        return 0;
    }
    const std::size_t k0 = firstEndingAfter(row, t0);
    const std::size_t k1 = firstStartingAtOrAfter(row, k0, t1);
    if (k1 <= k0) {
        return 0;
    }
    const auto& prefix = busyPrefix(row);
    TimePs busy = prefix[k1] - prefix[k0];
    // The intervals at either edge count only their part inside the window (one interval may cross both).
    if (const TimePs s = interval(row, k0).first; s < t0) {
        busy -= t0 - s;
    }
    if (const TimePs e = interval(row, k1 - 1).second; e > t1) {
        busy -= e - t1;
    }
    return std::max<TimePs>(0, busy);
}

std::optional<std::uint32_t> TimelineRows::previousOnRow(std::uint32_t index) const {
    const auto row = rowOf(index);
    if (!row || rowData(*row) == nullptr) {
        return std::nullopt;
    }
    const auto& indices = rowData(*row)->indices;
    if (rowKind(*row) == Kind::LoadStationary) {
        return std::nullopt;
    }
    const auto it = std::lower_bound(indices.begin(), indices.end(), index);
    if (it == indices.begin() || it == indices.end() || *it != index) {
        return std::nullopt;
    }
    return *(it - 1);
}

void TimelineRows::rebuildVisibleRows() {
    m_visible.clear();
    bool summaryAdded = false;
    for (std::uint32_t r = 0; r < m_allRows.size(); ++r) {
        if (m_allRows[r].kind != Kind::DmaQueue || m_dmaExpanded) {
            m_visible.push_back(r);
        } else if (!summaryAdded) {
            m_visible.push_back(kSummaryRow);
            summaryAdded = true;
        }
    }
}

void TimelineRows::setDmaExpanded(bool expanded) {
    m_dmaExpanded = expanded;
    rebuildVisibleRows();
}

const TimelineRows::Row* TimelineRows::rowData(std::size_t row) const {
    const std::uint32_t r = m_visible[row];
    return r == kSummaryRow ? nullptr : &m_allRows[r];
}

std::string TimelineRows::rowName(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->name : std::string("dma (all queues)");
}

TimelineRows::Kind TimelineRows::rowKind(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->kind : Kind::DmaSummary;
}

std::size_t TimelineRows::rowSize(std::size_t row) const {
    const Row* data = rowData(row);
    if (data == nullptr) {
        return m_dmaBusyStart.size();
    }
    return data->kind == Kind::LoadStationary ? m_result->timeline.lsCount() : data->indices.size();
}

TimePs TimelineRows::longest(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->longest : m_dmaBusyLongest;
}

std::pair<TimePs, TimePs> TimelineRows::interval(std::size_t row, std::size_t k) const {
    const auto& tl = m_result->timeline;
    const Row* data = rowData(row);
    if (data == nullptr) {
        return {m_dmaBusyStart[k], m_dmaBusyEnd[k]};
    }
    if (data->kind == Kind::LoadStationary) {
        return {tl.lsStartPs(k), tl.lsEndPs(k)};
    }
    const std::uint32_t i = data->indices[k];
    return {tl.mainStartPs(i), tl.endPs(i)};
}

std::uint32_t TimelineRows::instructionAt(std::size_t row, std::size_t k) const {
    const Row* data = rowData(row);
    if (data == nullptr) {
        return kNoInstruction;
    }
    return data->kind == Kind::LoadStationary ? m_result->timeline.lsIndex(k) : data->indices[k];
}

std::optional<std::size_t> TimelineRows::rowOf(std::uint32_t index) const {
    const auto lane = m_result->timeline.lane(index);
    for (std::size_t row = 0; row < m_visible.size(); ++row) {
        const Row* data = rowData(row);
        if (data != nullptr ? data->lane == lane : sim::LaneId(lane).isDma()) {
            return row;
        }
    }
    return std::nullopt;
}

std::size_t TimelineRows::firstStartingAtOrAfter(std::size_t row, std::size_t from, TimePs t) const {
    std::size_t lo = from;
    std::size_t hi = rowSize(row);
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (interval(row, mid).first < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

std::size_t TimelineRows::firstEndingAfter(std::size_t row, TimePs t) const {
    // Starts are sorted; an interval ending after t started after t - longest.
    std::size_t k = firstStartingAtOrAfter(row, 0, t - longest(row));
    const std::size_t n = rowSize(row);
    while (k < n && interval(row, k).second <= t) {
        ++k;
    }
    return k;
}

void TimelineRows::buildRowMarks(std::size_t row, TimePs t0, TimePs t1, double pxPerPs, double minWidthPx,
                                 std::vector<TimelineMark>& out) const {
    const std::size_t n = rowSize(row);
    const TimePs foldSpan = static_cast<TimePs>(minWidthPx / pxPerPs) + 1;
    std::size_t k = firstEndingAfter(row, t0);
    while (k < n) {
        const auto [start, end] = interval(row, k);
        if (start >= t1) {
            break;
        }
        const double x0 = static_cast<double>(start - t0) * pxPerPs;
        double x1 = static_cast<double>(end - t0) * pxPerPs;
        if (x1 - x0 >= minWidthPx) {
            out.push_back({x0, x1, static_cast<std::uint32_t>(row), instructionAt(row, k), 1});
            ++k;
            continue;
        }
        // Everything that starts within the next few pixels becomes one mark.
        const std::size_t next = std::max(k + 1, firstStartingAtOrAfter(row, k + 1, start + foldSpan));
        const TimePs lastEnd = interval(row, next - 1).second;
        x1 = std::max(x0 + minWidthPx, static_cast<double>(lastEnd - t0) * pxPerPs);
        out.push_back({x0, x1, static_cast<std::uint32_t>(row), instructionAt(row, k),
                       static_cast<std::uint32_t>(next - k), busyShare(row, k, next, lastEnd - start)});
        k = next;
    }
}

float TimelineRows::busyShare(std::size_t row, std::size_t first, std::size_t end, TimePs span) const {
    // A row's instructions never overlap, so busy time / span is the share drawn as solid. Evenly spaced
    // samples (all of them for a short run) estimate the mean duration.
    const std::size_t count = end - first;
    if (count <= 1 || span <= 0) {
        return 1.0F;
    }
    const std::size_t step = std::max<std::size_t>(1, count / kBusySamples);
    TimePs sampled = 0;
    std::size_t samples = 0;
    for (std::size_t k = first; k < end && samples < kBusySamples; k += step, ++samples) {
        const auto [s, e] = interval(row, k);
        sampled += e - s;
    }
    const double busy = static_cast<double>(sampled) / static_cast<double>(samples) * static_cast<double>(count) /
                        static_cast<double>(span);
    return static_cast<float>(std::clamp(busy, 0.0, 1.0));
}

void TimelineRows::buildMarks(TimePs t0, TimePs t1, double widthPx, double minWidthPx,
                              std::vector<TimelineMark>& out) const {
    if (t1 <= t0 || widthPx <= 0) {
        return;
    }
    const double pxPerPs = widthPx / static_cast<double>(t1 - t0);
    for (std::size_t row = 0; row < m_visible.size(); ++row) {
        buildRowMarks(row, t0, t1, pxPerPs, minWidthPx, out);
    }
}

std::optional<std::uint32_t> TimelineRows::hitTest(std::size_t row, TimePs t, TimePs slack) const {
    if (row >= m_visible.size()) {
        return std::nullopt;
    }
    std::size_t k = firstEndingAfter(row, t - slack);
    std::optional<std::uint32_t> best;
    TimePs bestDistance = slack + 1;
    for (const std::size_t n = rowSize(row); k < n; ++k) {
        const auto [start, end] = interval(row, k);
        if (start > t + slack) {
            break;
        }
        const TimePs distance = t < start ? start - t : (t >= end ? t - end + 1 : 0);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = instructionAt(row, k);
        }
        if (distance == 0 || (start > t && best)) {
            break; // sorted: nothing further right is closer
        }
    }
    return best == kNoInstruction ? std::nullopt : best;
}

std::size_t TimelineRows::memoryBytes() const {
    std::size_t bytes =
        sizeof(*this) +
        (m_dmaBusyStart.capacity() + m_dmaBusyEnd.capacity() + m_dmaBusyPrefix.capacity()) * sizeof(TimePs);
    for (const Row& row : m_allRows) {
        bytes +=
            row.indices.capacity() * sizeof(std::uint32_t) + row.busyPrefix.capacity() * sizeof(TimePs) + sizeof(Row);
    }
    return bytes;
}

} // namespace kl::views
