#include "engine/Simulator.h"

#include "common/Try.h"
#include "engine/Pipeline.h"
#include "listeners/DmaRecorder.h"
#include "listeners/OccupancyRecorder.h"
#include "listeners/OverlapAnalysis.h"
#include "listeners/SpillRecorder.h"
#include "listeners/SummaryCollector.h"
#include "listeners/TimelineRecorder.h"
#include "listeners/WaitCauseAnalysis.h"

#include <fmt/format.h>

namespace kl::sim {

Expected<std::shared_ptr<const SimResult>> Simulator::run(const KernelIr& ir, const HardwareProfile& hw,
                                                          std::span<SimListener* const> extra) {
    TimelineRecorder timeline;
    OccupancyRecorder occupancy;
    DmaRecorder dma;
    OverlapAnalysis overlap;
    WaitCauseAnalysis waits;
    SpillRecorder spills;
    SummaryCollector summary; // counts as a listener; summarise() below reads what every listener left
    SimListener* const standard[] = {&summary, &timeline, &occupancy, &dma, &overlap, &waits, &spills};

    {
        // Scoped: the Pipeline's working state is gone before the listeners build the result (the run's peak).
        Pipeline pipeline(hw);
        for (SimListener* l : standard) {
            pipeline.addListener(l);
        }
        for (SimListener* l : extra) {
            pipeline.addListener(l);
        }
        KL_TRY(pipeline.run(ir));
    }
    auto result = std::make_shared<SimResult>();
    result->kernelName = ir.kernelName;
    result->hardwareName = hw.name;
    result->files = ir.files;
    result->laneCount =
        (kComputeLanes + static_cast<std::uint32_t>(hw.dma.queues)) * static_cast<std::uint32_t>(ir.lnc);
    for (const IrDiagnostic& d : ir.diagnostics) {
        result->diagnostics.push_back(fmt::format("{}: {}", d.severity, d.message));
    }
    for (SimListener* l : standard) {
        l->finish(*result);
    }
    for (SimListener* l : extra) {
        l->finish(*result);
    }
    KL_TRY(occupancy.check());
    KL_TRY(dma.check());
    summary.summarise(*result);
    for (const auto* mem : {&result->sbuf, &result->psum}) {
        if (mem->overflowCount > 0) {
            result->diagnostics.push_back(fmt::format("warning: {} {} tile(s) did not fit even after spilling every "
                                                      "other live tile: one instruction's own tiles exceed "
                                                      "capacity; they were placed anyway, so occupancy exceeds "
                                                      "100 %",
                                                      mem->overflowCount, mem == &result->sbuf ? "SBUF" : "PSUM"));
        }
    }
    return std::shared_ptr<const SimResult>(std::move(result));
}

} // namespace kl::sim
