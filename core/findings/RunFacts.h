#pragma once

#include "analysis/ActivityIntervals.h"
#include "ir/KernelIr.h"
#include "result/SimResult.h"

#include <cstdint>
#include <vector>

namespace kl::core::findings {

/// Which way a DMA transfer moves data.
enum class DmaDirection : std::uint8_t { Load, Store, HbmToHbm, OnChip };

/// One DMA instruction as the rules see it.
struct DmaTransfer {
    std::uint32_t index = 0; ///< program order
    std::int64_t bytes = 0;
    std::int64_t partitions = 1;
    double bytesPerPartition = 0;
    DmaDirection direction = DmaDirection::Load;
    const sim::AccessPattern* hbm = nullptr; ///< the HBM operand, if any
};

/// Facts about a run that several rules need, computed once: the DMA transfers with their bytes per partition,
/// when compute and DMA were busy, and the exposed DMA intervals. Holds references to the IR and the result,
/// which must outlive it.
class RunFacts {
public:
    RunFacts(const sim::KernelIr& ir, const sim::SimResult& result);

    [[nodiscard]] const sim::KernelIr& ir() const { return m_ir; }
    [[nodiscard]] const sim::SimResult& result() const { return m_result; }
    [[nodiscard]] sim::TimePs totalPs() const { return m_result.summary.totalPs; }
    /// `part` as a percentage of the run's total time (0 for an empty run).
    [[nodiscard]] double pctOfRun(sim::TimePs part) const;
    /// Duration on its lane (for a matmul: the MultiplyMoving part).
    [[nodiscard]] sim::TimePs durationPs(std::uint32_t index) const { return m_result.timeline.durationPs(index); }

    [[nodiscard]] const std::vector<DmaTransfer>& dma() const { return m_dma; }
    /// The transfer of DMA instruction `index`, or nullptr when `index` is not a DMA.
    [[nodiscard]] const DmaTransfer* transferAt(std::uint32_t index) const;
    [[nodiscard]] const Intervals& computeBusy() const { return m_computeBusy; }
    [[nodiscard]] const Intervals& dmaBusy() const { return m_dmaBusy; }
    /// DMA active while no compute engine is busy.
    [[nodiscard]] const Intervals& exposedDma() const { return m_exposedDma; }
    /// Busy time of a compute engine (TensorE: its MultiplyMoving row; not Dma).
    [[nodiscard]] sim::TimePs engineBusyPs(sim::Engine engine) const { return m_result.summary.engine(engine).busyPs; }

    /// Bytes of the kernel's HBM arguments and outputs (each tensor once): the least traffic the kernel needs.
    [[nodiscard]] double tensorBytes() const { return m_tensorBytes; }
    /// Share of the run during which some DMA queue was active.
    [[nodiscard]] double dmaActivePct() const { return pctOfRun(totalLength(m_dmaBusy)); }

    /// Bytes per partition of a DMA the way the simulator counts them (the on-chip side's partitions, else the
    /// first HBM pattern dimension; sim/engine/Pipeline.cpp scheduleDma).
    [[nodiscard]] static DmaTransfer describeDma(const sim::KernelIr& ir, std::uint32_t index);

private:
    const sim::KernelIr& m_ir;
    const sim::SimResult& m_result;
    std::vector<DmaTransfer> m_dma;
    std::vector<std::uint32_t> m_dmaSlot; ///< per instruction: index into m_dma, or kNoIndex
    Intervals m_computeBusy;
    Intervals m_dmaBusy;
    Intervals m_exposedDma;
    double m_tensorBytes = 0;
};

} // namespace kl::core::findings
