#include "listeners/SummaryCollector.h"

#include "hw/HardwareProfile.h"

#include <algorithm>

namespace kl::sim {

namespace {

int summaryEngine(Engine e) {
    switch (e) {
    case Engine::Tensor: return static_cast<int>(SummaryEngine::Tensor);
    case Engine::Vector: return static_cast<int>(SummaryEngine::Vector);
    case Engine::Scalar: return static_cast<int>(SummaryEngine::Scalar);
    case Engine::GpSimd: return static_cast<int>(SummaryEngine::GpSimd);
    default: return -1;
    }
}

double pct(double part, double whole) {
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

} // namespace

void SummaryCollector::onStart(const KernelIr&, const HardwareProfile& hw) {
    m_summary = {};
    m_peakFlopsPerNs = hw.peakFlopsPerNs();
    m_hbmBytesPerNs = hw.hbmBytesPerNs;
}

void SummaryCollector::record(const InstructionEvent& e) {
    ++m_summary.instructionCount;
    m_summary.totalPs = std::max(m_summary.totalPs, e.end);
    m_summary.flops += e.flops;
    if (const int k = summaryEngine(e.engine); k >= 0) {
        auto& s = m_summary.engines[static_cast<std::size_t>(k)];
        ++s.instructions;
        s.busyPs += e.end - e.mainStart;
    }
}

void SummaryCollector::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void SummaryCollector::finish(SimResult& result) {
    SimSummary& s = m_summary;
    const auto total = static_cast<double>(s.totalPs);
    for (EngineStats& e : s.engines) {
        e.activePct = pct(static_cast<double>(e.busyPs), total);
    }
    s.dmaActivePct = pct(static_cast<double>(result.overlap.dmaActivePs), total);
    s.dmaExposedPs = result.overlap.dmaExposedPs;
    s.dmaBytes = result.dma.bytes;
    s.mfuPct = pct(s.flops, m_peakFlopsPerNs * total / 1000.0);
    s.hbmBandwidthUtilizationPct = pct(static_cast<double>(result.dma.hbmBytes), m_hbmBytesPerNs * total / 1000.0);
    s.sbufPeakBytes = result.sbuf.peakBytes;
    s.psumPeakBytes = result.psum.peakBytes;
    s.spillBytes = result.spills.sbuf.bytes + result.spills.psum.bytes;
    s.spillTransfers = result.spills.sbuf.transfers + result.spills.psum.transfers;
    result.summary = s;
}

} // namespace kl::sim
