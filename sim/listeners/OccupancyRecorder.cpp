#include "listeners/OccupancyRecorder.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <algorithm>

namespace kl::sim {

void OccupancyRecorder::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_sbuf.clear();
    m_psum.clear();
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
    m_sbuf.reserve(sbufTiles * 2);
    m_psum.reserve(psumTiles * 2);
}

void OccupancyRecorder::onMemory(const MemoryEvent& e) {
    OccupancySeries& meta = e.memory == Memory::Psum ? m_psumMeta : m_sbufMeta;
    if (e.partitionBytes > 0) {
        ++meta.tiles;
        meta.overflowCount += e.overflow ? 1 : 0;
    }
    (e.memory == Memory::Psum ? m_psum : m_sbuf).push_back({e.time, e.bytes, e.partitionBytes});
}

void OccupancyRecorder::build(std::vector<Step>& steps, OccupancySeries& out) {
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
        return a.time != b.time ? a.time < b.time : a.partitionBytes < b.partitionBytes;
    });
    std::int64_t bytes = 0;
    std::int64_t pbytes = 0;
    out.timePs.push_back(0);
    out.bytes.push_back(0);
    out.partitionBytes.push_back(0);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        bytes += steps[i].bytes;
        pbytes += steps[i].partitionBytes;
        // The peak is taken after frees and before allocations of the same instant are both applied,
        // i.e. at every intermediate point: allocations sort after frees, so this is the true maximum.
        out.peakBytes = std::max(out.peakBytes, bytes);
        out.peakPartitionBytes = std::max(out.peakPartitionBytes, pbytes);
        if (i + 1 < steps.size() && steps[i + 1].time == steps[i].time) {
            continue;
        }
        if (out.timePs.back() == steps[i].time) {
            out.bytes.back() = bytes;
            out.partitionBytes.back() = pbytes;
        } else {
            out.timePs.push_back(steps[i].time);
            out.bytes.push_back(bytes);
            out.partitionBytes.push_back(pbytes);
        }
    }
    steps.clear();
    steps.shrink_to_fit();
}

void OccupancyRecorder::finish(SimResult& result) {
    build(m_sbuf, m_sbufMeta);
    build(m_psum, m_psumMeta);
    result.sbuf = std::move(m_sbufMeta);
    result.psum = std::move(m_psumMeta);
}

} // namespace kl::sim
