#include "findings/Roofline.h"

#include <algorithm>

namespace kl::core::findings {

double memoryRoofBytesPerNs(const sim::HardwareProfile& hw, std::uint32_t cores) {
    return static_cast<double>(std::max(cores, 1U)) * std::min(hw.dma.coreBytesPerNs, hw.hbmBytesPerNs);
}

RooflinePoint rooflineOf(const sim::SimResult& result, const sim::HardwareProfile& hw, double tensorBytes) {
    RooflinePoint p;
    p.flops = result.summary.flops;
    p.hbmBytes = static_cast<double>(result.dma.hbmBytes);
    p.ns = static_cast<double>(result.summary.totalPs) / 1000.0;
    // A logical NeuronCore of two physical cores has both cores' TensorE and their shared DMA pool.
    const auto cores = std::max(result.lnc, 1U);
    p.peakFlopsPerNs = hw.peakFlopsPerNs() * static_cast<double>(cores);
    p.roofBytesPerNs = memoryRoofBytesPerNs(hw, cores);
    p.ridge = p.roofBytesPerNs > 0 ? p.peakFlopsPerNs / p.roofBytesPerNs : 0.0;
    if (p.ns > 0) {
        p.achievedFlopsPerNs = p.flops / p.ns;
        p.achievedBytesPerNs = p.hbmBytes / p.ns;
    }
    p.intensity = p.hbmBytes > 0 ? p.flops / p.hbmBytes : 0.0;
    p.leastTrafficIntensity = tensorBytes > 0 ? p.flops / tensorBytes : 0.0;
    p.computeBound = p.flops > 0 && (p.hbmBytes <= 0 || p.intensity >= p.ridge);
    const double achieved = p.computeBound ? p.achievedFlopsPerNs : p.achievedBytesPerNs;
    const double roof = p.computeBound ? p.peakFlopsPerNs : p.roofBytesPerNs;
    p.attainedPct = roof > 0 ? 100.0 * achieved / roof : 0.0;
    return p;
}

} // namespace kl::core::findings
