#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <vector>

namespace kl::sim {

/// Records every scheduled instruction into the packed struct-of-arrays TimelineData (start, end, lane,
/// op, source line, wait cause): TimelineData::kBytesPerInstruction (20) bytes per instruction plus 12 per
/// matmul for its LoadStationary row, reserved exactly at the start. Events arrive in program order, so
/// each array is appended to, never searched.
class TimelineRecorder : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onInstruction(const InstructionEvent& e) override;
    void onInstructions(std::span<const InstructionEvent> events) override;
    void finish(SimResult& result) override;

private:
    [[nodiscard]] TimelineData::Record toRecord(const InstructionEvent& e) const;
    const KernelIr* m_ir = nullptr;
    TimelineData m_data;
    std::vector<TimelineData::Record> m_records; ///< one batch, reused
};

} // namespace kl::sim
