#pragma once

#include "engine/SimListener.h"
#include "result/SimResult.h"

#include <string>
#include <vector>

namespace kl::sim {

/// Collects the spill and reload transfers the Pipeline adds when the live tiles do not fit SBUF or PSUM:
/// the transfers themselves (for the timeline), totals per memory, and one warning per spilled tile that
/// names the tile, the line that declared it and the line whose room it made (at most kMaxWarnings, the
/// heaviest first, then a count of the rest).
///
///   warning: SBUF spill: tile 'a' (kernel.py:12) written to HBM and read back 2 time(s), 786432 bytes of DMA
///   traffic; spilled to make room for kernel.py:20 (instruction #4)
class SpillRecorder : public SimListener {
public:
    static constexpr std::size_t kMaxWarnings = 5;

    void onStart(const KernelIr& ir, const HardwareProfile& hw) override;
    void onDmaTransfer(const DmaTransferEvent& e) override;
    void finish(SimResult& result) override;

private:
    /// One warning line per spilled tile of `memory`, heaviest first.
    void warn(Memory memory, std::vector<std::string>& out) const;
    [[nodiscard]] std::string where(SourceLoc loc) const;

    const KernelIr* m_ir = nullptr;
    SpillRecord m_record;
};

} // namespace kl::sim
