#include "listeners/OccupancyRecorder.h"

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace kl::sim {

void OccupancyRecorder::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    // With LNC 2 every core has its own lanes and its own SBUF and PSUM: the series is both cores' together,
    // against both cores' capacity.
    const auto cores = static_cast<std::size_t>(std::max(ir.lnc, 1));
    const std::size_t lanes = (kComputeLanes + static_cast<std::size_t>(hw.dma.queues)) * cores;
    m_lanes = lanes;
    m_perCore = cores > 1 ? kComputeLanes + static_cast<std::uint32_t>(hw.dma.queues) : 0;
    for (Track* t : {&m_sbuf, &m_psum}) {
        t->steps.reset(2 * lanes);
        t->series = {};
        t->bytes = 0;
        t->partitionBytes = 0;
        t->coreBytes.assign(cores > 1 ? cores : 0, 0);
        t->series.corePeakBytes.assign(cores > 1 ? cores : 0, 0);
        t->pending = -1;
        t->tooLargeAt = -1;
        t->tooLargeBytes = 0;
        // At most one point per allocation and per free, plus the first: reserved, not resized.
        const std::size_t points = 2 * ir.bufferCount(t == &m_sbuf ? Memory::Sbuf : Memory::Psum) + 1;
        t->series.timePs.reserve(points);
        t->series.bytes.reserve(points);
        t->series.partitionBytes.reserve(points);
        t->series.timePs.push_back(0);
        t->series.bytes.push_back(0);
        t->series.partitionBytes.push_back(0);
    }
    const auto n = static_cast<double>(cores);
    m_sbuf.series.capacityPartitionBytes = static_cast<std::int64_t>(hw.sbuf.partitionBytes * n);
    m_sbuf.series.capacityBytes = static_cast<std::int64_t>(hw.sbuf.partitionBytes * hw.sbuf.partitions * n);
    m_psum.series.capacityPartitionBytes = static_cast<std::int64_t>(hw.psum.partitionBytes * n);
    m_psum.series.capacityBytes = static_cast<std::int64_t>(hw.psum.partitionBytes * hw.psum.partitions * n);
}

void OccupancyRecorder::onMemoryEvents(std::span<const MemoryEvent> events) {
    for (const MemoryEvent& e : events) {
        record(e);
    }
}

void OccupancyRecorder::record(const MemoryEvent& e) {
    Track& t = e.memory == Memory::Psum ? m_psum : m_sbuf;
    if (e.partitionBytes > 0) {
        t.series.tiles += e.reload ? 0 : 1; // a reload brings back a tile already counted
        t.series.overflowCount += e.overflow ? 1 : 0;
    }
    const std::size_t lane = std::min<std::size_t>(e.lane, m_lanes - 1);
    t.steps.push(e.partitionBytes < 0 ? lane : m_lanes + lane,
                 {e.time, e.bytes, e.partitionBytes, laneCore(static_cast<std::uint16_t>(lane), m_perCore)});
}

void OccupancyRecorder::Track::closePoint() {
    if (pending < 0) {
        return;
    }
    // partitionBytes is at most bytes (a tile spans at least one partition); both are checked all the same.
    constexpr std::int64_t kMax = OccupancySeries::kMaxLiveBytes;
    if ((bytes > kMax || partitionBytes > kMax || bytes < -kMax || partitionBytes < -kMax) && tooLargeAt < 0)
        [[unlikely]] {
        tooLargeAt = pending;
        tooLargeBytes = bytes;
    }
    const auto b = static_cast<std::int32_t>(bytes);
    const auto pb = static_cast<std::int32_t>(partitionBytes);
    if (series.timePs.back() == pending) { // time 0 replaces the initial point
        series.bytes.back() = b;
        series.partitionBytes.back() = pb;
    } else {
        series.timePs.push_back(pending);
        series.bytes.push_back(b);
        series.partitionBytes.push_back(pb);
    }
}

void OccupancyRecorder::Track::apply(const Step& s) {
    // One point per distinct time, with the level after its last step; the peaks follow every step.
    if (s.time != pending) {
        closePoint();
        pending = s.time;
    }
    bytes += s.bytes;
    partitionBytes += s.partitionBytes;
    series.peakBytes = std::max(series.peakBytes, bytes);
    series.peakPartitionBytes = std::max(series.peakPartitionBytes, partitionBytes);
    if (s.core < coreBytes.size()) [[unlikely]] {
        coreBytes[s.core] += s.bytes;
        series.corePeakBytes[s.core] = std::max(series.corePeakBytes[s.core], coreBytes[s.core]);
    }
}

void OccupancyRecorder::Track::drainBefore(TimePs time) {
    steps.drainBefore(time, [this](const Step& s) { apply(s); });
}

void OccupancyRecorder::onWatermark(TimePs time) {
    m_sbuf.drainBefore(time);
    m_psum.drainBefore(time);
}

void OccupancyRecorder::finish(SimResult& result) {
    for (Track* t : {&m_sbuf, &m_psum}) {
        t->drainBefore(std::numeric_limits<TimePs>::max());
        t->closePoint();
        t->steps.reset(0);
    }
    result.sbuf = std::move(m_sbuf.series);
    result.psum = std::move(m_psum.series);
}

Expected<void> OccupancyRecorder::check() const {
    for (const Track* t : {&m_sbuf, &m_psum}) {
        if (t->tooLargeAt >= 0) {
            return makeError(
                ErrorCode::Unsupported,
                fmt::format("{} holds {} bytes of live tiles at {:.3f} us; the occupancy series holds at "
                            "most {} bytes (2 GiB) per memory, and this kernel keeps far more on chip than "
                            "a NeuronCore has: make its tiles smaller or free them sooner",
                            t == &m_sbuf ? "SBUF" : "PSUM", t->tooLargeBytes, static_cast<double>(t->tooLargeAt) / 1e6,
                            OccupancySeries::kMaxLiveBytes));
        }
    }
    return {};
}

} // namespace kl::sim
