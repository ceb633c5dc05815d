#include "listeners/SummaryCollector.h"

#include "hw/HardwareProfile.h"

#include <algorithm>

namespace kl::sim {

namespace {

double pct(double part, double whole) {
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

} // namespace

void SummaryCollector::onStart(const KernelIr& ir, const HardwareProfile& hw) {
    m_summary = {};
    m_cores.assign(ir.lnc > 1 ? static_cast<std::size_t>(ir.lnc) : 0, SimSummary{});
    m_perCore = ir.lnc > 1 ? kComputeLanes + static_cast<std::uint32_t>(hw.dma.queues) : 0;
    m_peakFlopsPerNs = hw.peakFlopsPerNs();
    m_hbmBytesPerNs = hw.hbmBytesPerNs;
}

void SummaryCollector::record(const InstructionEvent& e) {
    ++m_summary.instructionCount;
    m_summary.totalPs = std::max(m_summary.totalPs, e.end);
    m_summary.flops += e.flops;
    if (hasSummaryRow(e.engine)) {
        auto& s = m_summary.engine(e.engine);
        ++s.instructions;
        s.busyPs += e.end - e.mainStart;
    }
    if (!m_cores.empty()) [[unlikely]] {
        recordCore(e);
    }
}

void SummaryCollector::recordCore(const InstructionEvent& e) {
    SimSummary& c = m_cores[std::min<std::size_t>(laneCore(e.lane, m_perCore), m_cores.size() - 1)];
    ++c.instructionCount;
    c.totalPs = std::max(c.totalPs, e.end);
    c.flops += e.flops;
    c.dmaBytes += e.dmaBytes;
    if (hasSummaryRow(e.engine)) {
        auto& s = c.engine(e.engine);
        ++s.instructions;
        s.busyPs += e.end - e.mainStart;
    }
}

void SummaryCollector::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void SummaryCollector::summarise(SimResult& result) {
    SimSummary& s = m_summary;
    // With LNC 2 the engines, the TensorE peak and the HBM stack are those of every core: percentages are of
    // the run's time on all of them, so 100 % still means every core busy all the time.
    const double cores = m_cores.empty() ? 1.0 : static_cast<double>(m_cores.size());
    const auto total = static_cast<double>(s.totalPs) * cores;
    for (EngineStats& e : s.engines) {
        e.activePct = pct(static_cast<double>(e.busyPs), total);
    }
    s.dmaActivePct = pct(static_cast<double>(result.overlap.dmaActivePs), static_cast<double>(s.totalPs));
    s.dmaExposedPs = result.overlap.dmaExposedPs;
    s.dmaBytes = result.dma.bytes;
    s.mfuPct = pct(s.flops, m_peakFlopsPerNs * total / 1000.0);
    s.hbmBandwidthUtilizationPct = pct(static_cast<double>(result.dma.hbmBytes), m_hbmBytesPerNs * total / 1000.0);
    s.sbufPeakBytes = result.sbuf.peakBytes;
    s.psumPeakBytes = result.psum.peakBytes;
    s.spillBytes = result.spills.sbuf.bytes + result.spills.psum.bytes;
    s.spillTransfers = result.spills.sbuf.transfers + result.spills.psum.transfers;
    result.summary = s;
    const auto runPs = static_cast<double>(s.totalPs);
    for (std::size_t k = 0; k < m_cores.size(); ++k) { // each core against the run's time, so they compare directly
        SimSummary& c = m_cores[k];
        // Each core has its own SBUF and PSUM: its peak is its own tiles' (OccupancyRecorder splits by lane).
        c.sbufPeakBytes = k < result.sbuf.corePeakBytes.size() ? result.sbuf.corePeakBytes[k] : 0;
        c.psumPeakBytes = k < result.psum.corePeakBytes.size() ? result.psum.corePeakBytes[k] : 0;
        for (EngineStats& e : c.engines) {
            e.activePct = pct(static_cast<double>(e.busyPs), runPs);
        }
        c.mfuPct = pct(c.flops, m_peakFlopsPerNs * runPs / 1000.0);
        c.hbmBandwidthUtilizationPct = pct(static_cast<double>(c.dmaBytes), m_hbmBytesPerNs * runPs / 1000.0);
    }
    result.cores = std::move(m_cores);
    result.lnc = result.cores.empty() ? 1 : static_cast<std::uint32_t>(result.cores.size());
    result.lanesPerCore = m_perCore;
}

} // namespace kl::sim
