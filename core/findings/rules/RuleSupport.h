#pragma once

#include "findings/Roofline.h"
#include "findings/Rule.h"

#include <algorithm>
#include <string>
#include <vector>

// Small helpers the rule implementations share. Header-only: each is a line or two.
namespace kl::core::findings {

/// 100 * part / whole, 0 when whole is 0.
[[nodiscard]] inline double pct(double part, double whole) {
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

/// The median of `values` (reorders them); 0 for none.
[[nodiscard]] inline double median(std::vector<double> values) {
    if (values.empty()) {
        return 0;
    }
    const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

/// A figure with the threshold it is held against.
[[nodiscard]] inline Figure figure(std::string name, double value, std::string unit, double threshold) {
    return Figure{std::move(name), value, std::move(unit), threshold};
}
/// A figure given for context, with no threshold.
[[nodiscard]] inline Figure figure(std::string name, double value, std::string unit) {
    return Figure{std::move(name), value, std::move(unit), std::nullopt};
}

/// Lowers a severity by one step (major -> minor -> nit), for findings whose case is weaker than the rule's
/// usual one.
[[nodiscard]] inline Severity milder(Severity s) {
    switch (s) {
    case Severity::Blocking: return Severity::Major;
    case Severity::Major: return Severity::Minor;
    default: return Severity::Nit;
    }
}

/// Adds up to `maxItems` evidence items, one per NKI line of `indices`, most time first; `note` writes each
/// item's note from its line group.
template <typename NoteFn>
void addLineEvidence(const FindingsInput& in, std::span<const std::uint32_t> indices, std::size_t maxItems,
                     std::vector<EvidenceItem>& out, NoteFn note) {
    auto groups = in.evidence.byLine(indices);
    for (std::size_t g = 0; g < groups.size() && g < maxItems; ++g) {
        out.push_back(in.evidence.item(note(groups[g]), groups[g].indices));
    }
}

/// TensorE BF16 peak over the memory roof: the arithmetic intensity (FLOP per HBM byte) above which a kernel can be
/// compute-bound.
[[nodiscard]] inline double ridgeFlopsPerByte(const sim::HardwareProfile& hw) {
    const double roof = memoryRoofBytesPerNs(hw);
    return roof > 0 ? hw.peakFlopsPerNs() / roof : 0.0;
}

/// A matmul's tile sizes and input dtype, read as the cost model reads them (sim/engine/CostModel.cpp): attrs when
/// the front end gave them, else the operands.
struct MatmulShape {
    double moving = 0;
    double stationary = 0;
    double contraction = 0;
    sim::DType dtypeIn = sim::DType::Unknown;
};

[[nodiscard]] inline MatmulShape matmulShape(const sim::KernelIr& ir, const sim::Instruction& in) {
    const auto src = ir.srcs(in);
    const sim::InstrAttrs& attrs = ir.attrs(in);
    MatmulShape m{static_cast<double>(attrs.movingFree), static_cast<double>(attrs.stationaryFree),
                  static_cast<double>(attrs.contraction), attrs.dtypeIn};
    if (m.moving == 0 && src.size() > 1) {
        m.moving = static_cast<double>(sim::elementCount(ir, src[1]));
    }
    if (m.stationary == 0 && !src.empty()) {
        m.stationary = static_cast<double>(sim::elementCount(ir, src[0]));
    }
    if (m.contraction == 0 && !src.empty()) {
        m.contraction = static_cast<double>(src[0].partCount);
    }
    if (m.dtypeIn == sim::DType::Unknown && !src.empty() && src[0].buffer < ir.bufferFacts().size()) {
        m.dtypeIn = src[0].dtype != sim::DType::Unknown ? src[0].dtype : ir.bufferFacts()[src[0].buffer].dtype;
    }
    return m;
}

/// How much of the DMA bandwidth pool the run's transfers used, in percent of pool x run time: each transfer draws
/// bytes / efficiency(bytes per partition) from the pool (docs/simulator.md, DMA), so small transfers count for more
/// than their bytes. Near 100 the DMA is saturated; "DMA active" (some transfer in flight) is not the same thing.
[[nodiscard]] inline double dmaPoolBusyPct(const FindingsInput& in) {
    const double pool = memoryRoofBytesPerNs(in.hardware, in.result.lnc);
    const double ns = static_cast<double>(in.facts.totalPs()) / 1000.0;
    if (pool <= 0 || ns <= 0) {
        return 0;
    }
    double drawn = 0;
    for (const DmaTransfer& t : in.facts.dma()) {
        drawn += static_cast<double>(t.bytes) / std::max(in.hardware.dmaEfficiency(t.bytesPerPartition), 1e-3);
    }
    return std::min(100.0, pct(drawn, pool * ns));
}

} // namespace kl::core::findings
