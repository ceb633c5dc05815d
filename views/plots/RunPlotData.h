#pragma once

#include "result/SimResult.h"

#include <QSharedPointer>

#include <memory>

class QCPGraphData;
template <class DataType> class QCPDataContainer;
using QCPGraphDataContainer = QCPDataContainer<QCPGraphData>;

namespace kl::views {

/// The series RunPlots draws for one run (SBUF and PSUM occupancy in %, DMA bandwidth in GB/s, compute busy and
/// exposed DMA as 0/1 steps), converted from a SimResult. Their size grows with the run's instructions, so the
/// simulation worker builds them (build(), any thread; it touches no QObject) and RunPlots::setResult only hands
/// the containers to its graphs, which share them without a copy.
struct RunPlotData {
    QSharedPointer<QCPGraphDataContainer> sbuf;
    QSharedPointer<QCPGraphDataContainer> psum;
    QSharedPointer<QCPGraphDataContainer> dma;
    QSharedPointer<QCPGraphDataContainer> compute;
    QSharedPointer<QCPGraphDataContainer> exposed;
    double dmaPeakGBps = 0; ///< the highest DMA bandwidth value (0 when there is none)

    [[nodiscard]] static std::shared_ptr<const RunPlotData> build(const sim::SimResult& result);
};

} // namespace kl::views
