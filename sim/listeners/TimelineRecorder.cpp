#include "listeners/TimelineRecorder.h"

#include "ir/KernelIr.h"

namespace kl::sim {

void TimelineRecorder::onStart(const KernelIr& ir, const HardwareProfile&) {
    m_ir = &ir;
    m_data = {};
    m_data.reserve(ir.instructions().size(), ir.matmulCount()); // exact: nothing grows, nothing is left over
}

TimelineData::Record TimelineRecorder::toRecord(const InstructionEvent& e) const {
    const Instruction& in = m_ir->instructions()[e.index];
    TimelineData::Record r;
    r.irId = m_ir->id(e.index);
    r.mainStartPs = e.mainStart;
    r.endPs = e.end;
    r.lane = e.lane;
    r.op = e.op;
    r.loc = m_ir->innermostLoc(in);
    r.cause = e.cause;
    r.waitOn = e.waitOn;
    r.stallPs = e.stall;
    r.lsStartPs = e.lsStart;
    r.lsEndPs = e.lsEnd;
    return r;
}

void TimelineRecorder::onInstruction(const InstructionEvent& e) {
    m_data.append(toRecord(e));
}

void TimelineRecorder::onInstructions(std::span<const InstructionEvent> events) {
    m_records.clear();
    for (const InstructionEvent& e : events) {
        m_records.push_back(toRecord(e));
    }
    m_data.append(m_records);
}

void TimelineRecorder::finish(SimResult& result) {
    m_data.freeze();
    result.timeline = std::move(m_data);
    m_data = {};
    m_ir = nullptr;
}

} // namespace kl::sim
