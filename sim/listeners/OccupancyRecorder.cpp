#include "listeners/OccupancyRecorder.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"
#include "listeners/SortedMerge.h"

#include <algorithm>

namespace kl::sim {

void OccupancyRecorder::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    const std::size_t lanes = kComputeLanes + static_cast<std::size_t>(hw.dma.queues);
    m_sbuf.assign(lanes + 1, {});
    m_psum.assign(lanes + 1, {});
    m_sbufMeta = {};
    m_psumMeta = {};
    m_sbufMeta.capacityPartitionBytes = static_cast<std::int64_t>(hw.sbuf.partitionBytes);
    m_sbufMeta.capacityBytes = static_cast<std::int64_t>(hw.sbuf.partitionBytes * hw.sbuf.partitions);
    m_psumMeta.capacityPartitionBytes = static_cast<std::int64_t>(hw.psum.partitionBytes);
    m_psumMeta.capacityBytes = static_cast<std::int64_t>(hw.psum.partitionBytes * hw.psum.partitions);
    std::size_t sbufTiles = 0;
    std::size_t psumTiles = 0;
    for (const Buffer& b : ir.buffers()) {
        sbufTiles += b.memory == Memory::Sbuf ? 1 : 0;
        psumTiles += b.memory == Memory::Psum ? 1 : 0;
    }
    m_sbuf[0].reserve(sbufTiles);
    m_psum[0].reserve(psumTiles);
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
    Lists& lists = e.memory == Memory::Psum ? m_psum : m_sbuf;
    const std::size_t list = e.partitionBytes < 0 ? 0 : 1 + e.lane;
    if (list >= lists.size()) {
        lists.resize(list + 1);
    }
    lists[list].push_back({e.time, e.bytes, e.partitionBytes});
}

void OccupancyRecorder::build(Lists& lists, OccupancySeries& out) {
    std::sort(lists[0].begin(), lists[0].end(), [](const Step& a, const Step& b) {
        return a.time != b.time ? a.time < b.time : a.partitionBytes < b.partitionBytes;
    });
    std::int64_t bytes = 0;
    std::int64_t pbytes = 0;
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
    // Frees are list 0, so at equal times they come before allocations (ties go to the lower list):
    // the running maximum is then the true peak, as the MemoryUnit placed tiles.
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
    build(m_sbuf, m_sbufMeta);
    build(m_psum, m_psumMeta);
    result.sbuf = std::move(m_sbufMeta);
    result.psum = std::move(m_psumMeta);
}

} // namespace kl::sim
