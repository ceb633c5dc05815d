#pragma once

#include "hw/HardwareProfile.h"
#include "result/SimResult.h"

namespace kl::core::findings {

/// Where a run sits on the roofline of its hardware: the numbers a roofline plot draws and the `roofline` rule
/// reports. Compute is TensorE's (matmul FLOPs, 2*K*M*N each, against the BF16 peak); memory is the bandwidth one
/// core's DMA can draw from HBM (min of the profile's DMA and HBM per-core figures).
struct RooflinePoint {
    double flops = 0;
    double hbmBytes = 0;
    double ns = 0;             ///< the run's total time
    double peakFlopsPerNs = 0; ///< TensorE BF16 peak
    double roofBytesPerNs = 0; ///< the memory roof
    double ridge = 0;          ///< peak / roof, FLOP per byte
    double achievedFlopsPerNs = 0;
    double achievedBytesPerNs = 0;
    double intensity = 0;             ///< flops / hbmBytes
    double leastTrafficIntensity = 0; ///< flops / bytes of the kernel's HBM tensors (each moved once)
    bool computeBound = false;        ///< intensity at or above the ridge (and some FLOPs)
    double attainedPct = 0;           ///< of the roof that bounds it
};

/// The memory roof: min(dma.core_bandwidth, hbm.bandwidth_per_core), the simulator's bandwidth pool.
/// With LNC 2 (`cores` 2) the pair draws from one pool of twice that, as the simulator's DMA unit does.
[[nodiscard]] double memoryRoofBytesPerNs(const sim::HardwareProfile& hw, std::uint32_t cores = 1);

/// `tensorBytes`: bytes of the kernel's HBM inputs and outputs (RunFacts::tensorBytes), 0 when unknown.
[[nodiscard]] RooflinePoint rooflineOf(const sim::SimResult& result, const sim::HardwareProfile& hw,
                                       double tensorBytes);

} // namespace kl::core::findings
