#include "listeners/OccupancyRecorder.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "listeners/SortedMerge.h"

#include <algorithm>

namespace kl::sim {

void OccupancyRecorder::onStart(const KernelIr&, const HardwareProfile& hw) {
    const std::size_t lanes = kComputeLanes + static_cast<std::size_t>(hw.dma.queues);
    m_lanes = lanes;
    m_sbuf.assign(2 * lanes, {});
    m_psum.assign(2 * lanes, {});
    m_sbufUnsorted.assign(2 * lanes, false);
    m_psumUnsorted.assign(2 * lanes, false);
    m_sbufMeta = {};
    m_psumMeta = {};
    m_sbufMeta.capacityPartitionBytes = static_cast<std::int64_t>(hw.sbuf.partitionBytes);
    m_sbufMeta.capacityBytes = static_cast<std::int64_t>(hw.sbuf.partitionBytes * hw.sbuf.partitions);
    m_psumMeta.capacityPartitionBytes = static_cast<std::int64_t>(hw.psum.partitionBytes);
    m_psumMeta.capacityBytes = static_cast<std::int64_t>(hw.psum.partitionBytes * hw.psum.partitions);
}

void OccupancyRecorder::onMemoryEvents(std::span<const MemoryEvent> events) {
    for (const MemoryEvent& e : events) {
        record(e);
    }
}

void OccupancyRecorder::record(const MemoryEvent& e) {
    OccupancySeries& meta = e.memory == Memory::Psum ? m_psumMeta : m_sbufMeta;
    if (e.partitionBytes > 0) {
        ++meta.tiles;
        meta.overflowCount += e.overflow ? 1 : 0;
    }
    const bool psum = e.memory == Memory::Psum;
    const std::size_t lane = std::min<std::size_t>(e.lane, m_lanes - 1);
    const std::size_t l = e.partitionBytes < 0 ? lane : m_lanes + lane;
    std::vector<Step>& list = (psum ? m_psum : m_sbuf)[l];
    if (!list.empty() && list.back().time > e.time) {
        (psum ? m_psumUnsorted : m_sbufUnsorted)[l] = true;
    }
    list.push_back({e.time, e.bytes, e.partitionBytes});
}

void OccupancyRecorder::build(Lists& lists, const std::vector<bool>& unsorted, OccupancySeries& out) {
    // A lane's frees are nearly always in time order already (a tile is freed at the end of its last
    // use, and a lane runs in order); the rare list that is not gets sorted. Every list must be sorted
    // by time for the merge; the order of frees at one time does not matter (they only lower the level).
    for (std::size_t l = 0; l < lists.size(); ++l) {
        if (unsorted[l]) {
            std::sort(lists[l].begin(), lists[l].end(), [](const Step& a, const Step& b) { return a.time < b.time; });
        }
    }
    std::int64_t bytes = 0;
    std::int64_t pbytes = 0;
    // At most one point per step plus the initial one; reserved (untouched pages cost nothing).
    std::size_t steps = 0;
    for (const std::vector<Step>& list : lists) {
        steps += list.size();
    }
    out.timePs.reserve(steps + 1);
    out.bytes.reserve(steps + 1);
    out.partitionBytes.reserve(steps + 1);
    out.timePs.push_back(0);
    out.bytes.push_back(0);
    out.partitionBytes.push_back(0);
    TimePs pending = -1;
    const auto flush = [&] {
        if (pending < 0) {
            return;
        }
        if (out.timePs.back() == pending) {
            out.bytes.back() = bytes;
            out.partitionBytes.back() = pbytes;
        } else {
            out.timePs.push_back(pending);
            out.bytes.push_back(bytes);
            out.partitionBytes.push_back(pbytes);
        }
    };
    // Frees are lists [0, lanes), allocations [lanes, 2 lanes), so at equal times frees come before
    // allocations (ties go to the lower list): the running maximum is then the true peak, as the
    // MemoryUnit placed tiles.
    mergeSorted(
        lists, [](const Step& s) { return s.time; },
        [&](const Step& s) {
            if (s.time != pending) {
                flush();
                pending = s.time;
            }
            bytes += s.bytes;
            pbytes += s.partitionBytes;
            out.peakBytes = std::max(out.peakBytes, bytes);
            out.peakPartitionBytes = std::max(out.peakPartitionBytes, pbytes);
        });
    flush();
    lists = {};
}

void OccupancyRecorder::finish(SimResult& result) {
    build(m_sbuf, m_sbufUnsorted, m_sbufMeta);
    build(m_psum, m_psumUnsorted, m_psumMeta);
    result.sbuf = std::move(m_sbufMeta);
    result.psum = std::move(m_psumMeta);
}

} // namespace kl::sim
