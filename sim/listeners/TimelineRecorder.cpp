#include "listeners/TimelineRecorder.h"

#include "ir/KernelIr.h"

namespace kl::sim {

void TimelineRecorder::onStart(const KernelIr& ir, const HardwareProfile&) {
    m_ir = &ir;
    const std::size_t n = ir.instructions().size();
    m_data = {};
    m_data.irId.reserve(n);
    m_data.startPs.reserve(n);
    m_data.endPs.reserve(n);
    m_data.mainStartPs.reserve(n);
    m_data.lane.reserve(n);
    m_data.op.reserve(n);
    m_data.file.reserve(n);
    m_data.line.reserve(n);
    m_data.cause.reserve(n);
    m_data.waitOn.reserve(n);
    m_data.stallPs.reserve(n);
}

void TimelineRecorder::record(const InstructionEvent& e) {
    const Instruction& in = m_ir->instructions()[e.index];
    const SourceLoc loc = m_ir->innermostLoc(in);
    m_data.irId.push_back(in.id);
    m_data.startPs.push_back(e.start);
    m_data.endPs.push_back(e.end);
    m_data.mainStartPs.push_back(e.mainStart);
    m_data.lane.push_back(e.lane);
    m_data.op.push_back(e.op);
    m_data.file.push_back(loc.file);
    m_data.line.push_back(loc.line);
    m_data.cause.push_back(e.cause);
    m_data.waitOn.push_back(e.waitOn);
    m_data.stallPs.push_back(e.stall);
    if (e.lsStart >= 0) {
        m_data.lsIndex.push_back(e.index);
        m_data.lsStartPs.push_back(e.lsStart);
        m_data.lsEndPs.push_back(e.lsEnd);
    }
}

void TimelineRecorder::onInstructions(std::span<const InstructionEvent> events) {
    for (const InstructionEvent& e : events) {
        record(e);
    }
}

void TimelineRecorder::finish(SimResult& result) {
    result.timeline = std::move(m_data);
    m_data = {};
    m_ir = nullptr;
}

} // namespace kl::sim
