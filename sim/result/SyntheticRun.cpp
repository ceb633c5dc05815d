#include "result/SyntheticRun.h"

#include "ir/KernelIr.h"

#include <array>

namespace kl::sim {

std::shared_ptr<SimResult> makeSyntheticRun(std::size_t count, TimePs durationPs, TimePs gapPs) {
    auto result = std::make_shared<SimResult>();
    result->kernelName = "synthetic";
    result->hardwareName = "trn1";
    result->files = {"kernel.py"};
    result->laneCount = kComputeLanes + 2;
    auto& tl = result->timeline;
    // Lanes in rotation: MM (with an LS part), vector, scalar, dma.q0, dma.q1.
    const std::array<std::uint16_t, 5> lanes = {1, 2, 3, 5, 6};
    std::array<TimePs, 8> laneFree{};
    tl.reserve(count, (count + lanes.size() - 1) / lanes.size());
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint16_t lane = lanes[i % lanes.size()];
        const TimePs start = laneFree[lane];
        const TimePs end = start + durationPs;
        laneFree[lane] = end + gapPs;
        TimelineData::Record r;
        r.irId = static_cast<std::uint32_t>(i);
        r.mainStartPs = start;
        r.endPs = end;
        r.lane = lane;
        r.op = lane == 1 ? Op::NcMatmul : (lane >= 5 ? Op::DmaCopy : Op::TensorTensor);
        r.loc = {0, static_cast<std::uint32_t>(10 + i % 7)};
        r.cause = i == 0 ? WaitCause::None : WaitCause::Engine;
        r.waitOn = i >= lanes.size() ? static_cast<std::uint32_t>(i - 1) : kNoIndex;
        r.stallPs = 0;
        if (lane == 1) {
            r.lsStartPs = start;
            r.lsEndPs = start + durationPs / 4;
        }
        tl.append(r);
        result->summary.totalPs = std::max(result->summary.totalPs, end);
    }
    tl.freeze();
    result->summary.instructionCount = count;
    // DMA moves 1 byte per ps (1000 GB/s) whenever a transfer runs, as a step series.
    for (std::size_t i = 0; i < count; ++i) {
        if (tl.lane(i) == 5) {
            result->dma.timePs.push_back(tl.mainStartPs(i));
            result->dma.bytesPerNs.push_back(1000.0);
            result->dma.bytesInFlight.push_back(static_cast<std::int32_t>(durationPs));
            result->dma.activeTransfers.push_back(1);
            result->dma.timePs.push_back(tl.endPs(i));
            result->dma.bytesPerNs.push_back(0.0);
            result->dma.bytesInFlight.push_back(0);
            result->dma.activeTransfers.push_back(0);
        }
    }
    result->sbuf.capacityPartitionBytes = 196608;
    result->sbuf.timePs = {0, result->summary.totalPs / 2};
    result->sbuf.partitionBytes = {98304, 0};
    result->sbuf.bytes = {98304 * 128, 0};
    result->psum.capacityPartitionBytes = 16384;
    return result;
}

} // namespace kl::sim
