#include "timeline/TimelineRows.h"

#include <algorithm>
#include <string>

namespace kl::views {

using sim::Lane;

namespace {

constexpr std::uint16_t kLsLane = sim::LaneId(Lane::LoadStationary).value();

} // namespace

TimelineRows::TimelineRows(std::shared_ptr<const sim::SimResult> result) : m_result(std::move(result)) {
    const auto& tl = m_result->timeline;
    const std::uint32_t perCore = m_result->lanesPerCore;
    const std::uint32_t cores = std::max<std::uint32_t>(m_result->lnc, 1);
    m_coreExpanded.assign(cores, true);
    const std::uint16_t laneCount =
        static_cast<std::uint16_t>(std::max<std::uint32_t>(m_result->laneCount, sim::kComputeLanes));
    std::vector<Row> byLane(laneCount);
    for (std::uint16_t lane = 0; lane < laneCount; ++lane) {
        const sim::LaneId id(lane, perCore);
        byLane[lane].name = m_result->laneLabel(lane);
        byLane[lane].lane = lane;
        byLane[lane].core = std::min(sim::laneCore(lane, perCore), cores - 1);
        byLane[lane].kind = id.local() == kLsLane ? Kind::LoadStationary : (id.isDma() ? Kind::DmaQueue : Kind::Engine);
    }
    for (std::uint32_t i = 0; i < tl.size(); ++i) {
        Row& row = byLane[tl.lane(i)];
        row.indices.push_back(i);
        row.longest = std::max(row.longest, tl.endPs(i) - tl.mainStartPs(i));
        m_end = std::max(m_end, tl.endPs(i));
    }
    for (std::uint32_t k = 0; k < tl.lsCount(); ++k) {
        // The LoadStationary row of the core whose MultiplyMoving row holds the matmul.
        const std::uint16_t mm = tl.lane(tl.lsIndex(k));
        Row& ls = byLane[static_cast<std::uint16_t>(mm - sim::localLane(mm, perCore) + kLsLane)];
        ls.indices.push_back(k);
        ls.longest = std::max(ls.longest, tl.lsEndPs(k) - tl.lsStartPs(k));
    }
    const auto& spills = m_result->spills.transfers;
    for (std::uint32_t k = 0; k < spills.size(); ++k) {
        if (spills[k].lane < laneCount) {
            Row& row = byLane[spills[k].lane];
            row.spills.push_back(k);
            row.longest = std::max(row.longest, spills[k].endPs - spills[k].startPs);
            m_end = std::max(m_end, spills[k].endPs);
        }
    }
    for (Row& row : byLane) {
        std::stable_sort(row.spills.begin(), row.spills.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return spills[a].startPs < spills[b].startPs; });
    }
    // The union of each core's queues' busy time: what its collapsed DMA row shows.
    std::vector<std::vector<std::pair<TimePs, TimePs>>> dma(cores);
    for (std::uint16_t lane = 0; lane < laneCount; ++lane) {
        Row& row = byLane[lane];
        const bool isDma = row.kind == Kind::DmaQueue;
        if (!isDma || !row.indices.empty() || !row.spills.empty()) {
            if (isDma) {
                for (std::uint32_t i : row.indices) {
                    dma[row.core].emplace_back(tl.mainStartPs(i), tl.endPs(i));
                }
            }
            row.indices.shrink_to_fit();
            m_allRows.push_back(std::move(row));
        }
    }
    m_dmaBusy.resize(cores);
    for (std::uint32_t c = 0; c < cores; ++c) {
        DmaBusy& busy = m_dmaBusy[c];
        std::sort(dma[c].begin(), dma[c].end());
        for (const auto& [s, e] : dma[c]) {
            if (!busy.end.empty() && s <= busy.end.back()) {
                busy.end.back() = std::max(busy.end.back(), e);
            } else {
                busy.start.push_back(s);
                busy.end.push_back(e);
            }
            busy.longest = std::max(busy.longest, busy.end.back() - busy.start.back());
        }
    }
    buildBusyPrefixes();
    std::vector<std::size_t> queuesOfCore(cores, 0);
    for (const Row& row : m_allRows) {
        queuesOfCore[row.core] += row.kind == Kind::DmaQueue ? 1 : 0;
    }
    m_dmaExpanded = std::ranges::max(queuesOfCore) <= kQueuesOpenExpanded;
    rebuildVisibleRows();
}

void TimelineRows::buildBusyPrefixes() {
    const auto& tl = m_result->timeline;
    for (Row& row : m_allRows) {
        const bool ls = row.kind == Kind::LoadStationary;
        const std::size_t n = row.indices.size();
        row.busyPrefix.assign(n + 1, 0);
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint32_t i = row.indices[k];
            const TimePs busy = ls ? tl.lsEndPs(i) - tl.lsStartPs(i) : tl.endPs(i) - tl.mainStartPs(i);
            row.busyPrefix[k + 1] = row.busyPrefix[k] + busy;
        }
    }
    for (DmaBusy& busy : m_dmaBusy) {
        busy.prefix.assign(busy.start.size() + 1, 0);
        for (std::size_t k = 0; k < busy.start.size(); ++k) {
            busy.prefix[k + 1] = busy.prefix[k] + (busy.end[k] - busy.start[k]);
        }
    }
}

const TimelineRows::DmaBusy& TimelineRows::summaryOf(std::size_t row) const {
    const std::uint32_t v = m_visible[row];
    const std::uint32_t core = isSummary(v) ? v - kSummaryRow : (isHeader(v) ? v - kHeaderRow : 0);
    return m_dmaBusy[std::min<std::size_t>(core, m_dmaBusy.size() - 1)];
}

const std::vector<TimePs>& TimelineRows::busyPrefix(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->busyPrefix : summaryOf(row).prefix;
}

TimePs TimelineRows::busyPs(std::size_t row, TimePs t0, TimePs t1) const {
    if (row >= m_visible.size() || t1 <= t0 || rowSize(row) == 0) {
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
    const bool grouped = m_coreExpanded.size() > 1;
    for (std::uint32_t core = 0; core < m_coreExpanded.size(); ++core) {
        if (grouped) {
            m_visible.push_back(kHeaderRow + core);
            if (!m_coreExpanded[core]) {
                continue;
            }
        }
        bool summaryAdded = false;
        for (std::uint32_t r = 0; r < m_allRows.size(); ++r) {
            if (m_allRows[r].core != core) {
                continue;
            }
            if (m_allRows[r].kind != Kind::DmaQueue || m_dmaExpanded) {
                m_visible.push_back(r);
            } else if (!summaryAdded) {
                m_visible.push_back(kSummaryRow + core);
                summaryAdded = true;
            }
        }
    }
}

void TimelineRows::setDmaExpanded(bool expanded) {
    m_dmaExpanded = expanded;
    rebuildVisibleRows();
}

void TimelineRows::setCoreExpanded(std::uint32_t core, bool expanded) {
    if (core < m_coreExpanded.size()) {
        m_coreExpanded[core] = expanded;
        rebuildVisibleRows();
    }
}

std::uint32_t TimelineRows::rowCore(std::size_t row) const {
    const std::uint32_t v = m_visible[row];
    if (isSummary(v)) {
        return v - kSummaryRow;
    }
    return isHeader(v) ? v - kHeaderRow : m_allRows[v].core;
}

const TimelineRows::Row* TimelineRows::rowData(std::size_t row) const {
    const std::uint32_t r = m_visible[row];
    return r >= kHeaderRow ? nullptr : &m_allRows[r];
}

std::string TimelineRows::rowName(std::size_t row) const {
    const Row* data = rowData(row);
    if (data != nullptr) {
        return data->name;
    }
    const std::uint32_t core = rowCore(row);
    if (isHeader(m_visible[row])) {
        return "core " + std::to_string(core);
    }
    // Short enough to leave the busy percentage readable in the label column: "dma ×16" for sixteen queues.
    const auto queues =
        std::ranges::count_if(m_allRows, [core](const Row& r) { return r.core == core && r.kind == Kind::DmaQueue; });
    const std::string name = "dma \u00d7" + std::to_string(queues);
    return m_dmaBusy.size() > 1 ? "c" + std::to_string(core) + "." + name : name;
}

TimelineRows::Kind TimelineRows::rowKind(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->kind : (isHeader(m_visible[row]) ? Kind::CoreHeader : Kind::DmaSummary);
}

std::size_t TimelineRows::rowSize(std::size_t row) const {
    const Row* data = rowData(row);
    if (data == nullptr) {
        return isHeader(m_visible[row]) ? 0 : summaryOf(row).start.size();
    }
    return data->indices.size();
}

TimePs TimelineRows::longest(std::size_t row) const {
    const Row* data = rowData(row);
    return data ? data->longest : summaryOf(row).longest;
}

std::pair<TimePs, TimePs> TimelineRows::interval(std::size_t row, std::size_t k) const {
    const auto& tl = m_result->timeline;
    const Row* data = rowData(row);
    if (data == nullptr) {
        const DmaBusy& busy = summaryOf(row);
        return {busy.start[k], busy.end[k]};
    }
    const std::uint32_t i = data->indices[k];
    if (data->kind == Kind::LoadStationary) {
        return {tl.lsStartPs(i), tl.lsEndPs(i)};
    }
    return {tl.mainStartPs(i), tl.endPs(i)};
}

std::uint32_t TimelineRows::instructionAt(std::size_t row, std::size_t k) const {
    const Row* data = rowData(row);
    if (data == nullptr) {
        return kNoInstruction;
    }
    return data->kind == Kind::LoadStationary ? m_result->timeline.lsIndex(data->indices[k]) : data->indices[k];
}

std::optional<std::size_t> TimelineRows::rowOf(std::uint32_t index) const {
    const auto lane = m_result->timeline.lane(index);
    const std::uint32_t perCore = m_result->lanesPerCore;
    for (std::size_t row = 0; row < m_visible.size(); ++row) {
        const Row* data = rowData(row);
        if (data != nullptr ? data->lane == lane
                            : (isSummary(m_visible[row]) && !sim::isComputeLane(lane, perCore) &&
                               sim::laneCore(lane, perCore) == rowCore(row))) {
            return row;
        }
    }
    return std::nullopt;
}

std::optional<std::uint32_t> TimelineRows::spillAt(std::size_t row, TimePs t, TimePs slack) const {
    const Row* data = row < m_visible.size() ? rowData(row) : nullptr;
    if (data == nullptr) {
        return std::nullopt;
    }
    const auto& spills = m_result->spills.transfers;
    for (const std::uint32_t k : data->spills) {
        if (spills[k].startPs - slack <= t && t < spills[k].endPs + slack) {
            return k;
        }
    }
    return std::nullopt;
}

void TimelineRows::buildSpillMarks(std::size_t row, TimePs t0, TimePs t1, double pxPerPs, double minWidthPx,
                                   std::vector<TimelineMark>& out) const {
    const Row* data = rowData(row);
    if (data == nullptr) {
        return;
    }
    // Spills are rare (each is a whole tile's round trip): drawn one mark each, on top of the queue's transfers.
    const auto& spills = m_result->spills.transfers;
    for (const std::uint32_t k : data->spills) {
        const sim::SpillTransfer& s = spills[k];
        if (s.endPs <= t0 || s.startPs >= t1) {
            continue;
        }
        const double x0 = static_cast<double>(s.startPs - t0) * pxPerPs;
        const double x1 = std::max(x0 + minWidthPx, static_cast<double>(s.endPs - t0) * pxPerPs);
        TimelineMark mark{x0, x1, static_cast<std::uint32_t>(row), kNoInstruction, 1};
        mark.spill = k;
        out.push_back(mark);
    }
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
        buildSpillMarks(row, t0, t1, pxPerPs, minWidthPx, out);
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
    std::size_t bytes = sizeof(*this);
    for (const DmaBusy& busy : m_dmaBusy) {
        bytes += (busy.start.capacity() + busy.end.capacity() + busy.prefix.capacity()) * sizeof(TimePs);
    }
    for (const Row& row : m_allRows) {
        bytes += (row.indices.capacity() + row.spills.capacity()) * sizeof(std::uint32_t) +
                 row.busyPrefix.capacity() * sizeof(TimePs) + sizeof(Row);
    }
    return bytes;
}

} // namespace kl::views
