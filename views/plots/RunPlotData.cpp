#include "plots/RunPlotData.h"

#include "analysis/ActivityIntervals.h"

#include <qcustomplot.h>

#include <algorithm>

namespace kl::views {

namespace {

constexpr double kPsPerUs = 1; // keys are picoseconds, as on the timeline

// Step data from intervals: 1 inside, 0 outside.
QSharedPointer<QCPGraphDataContainer> intervalData(const core::Intervals& intervals) {
    QVector<QCPGraphData> points;
    points.reserve(static_cast<qsizetype>(intervals.size() * 2 + 1));
    points.push_back({0, 0});
    for (const auto& [s, e] : intervals) {
        points.push_back({static_cast<double>(s) / kPsPerUs, 1});
        points.push_back({static_cast<double>(e) / kPsPerUs, 0});
    }
    auto data = QSharedPointer<QCPGraphDataContainer>::create();
    data->set(points, /*alreadySorted=*/true);
    return data;
}

template <typename Values, typename Convert>
QSharedPointer<QCPGraphDataContainer> stepData(const std::vector<sim::TimePs>& times, const Values& values,
                                               Convert convert) {
    QVector<QCPGraphData> points;
    const std::size_t n = std::min(times.size(), values.size());
    points.reserve(static_cast<qsizetype>(n));
    for (std::size_t i = 0; i < n; ++i) {
        points.push_back({static_cast<double>(times[i]) / kPsPerUs, convert(values[i])});
    }
    auto data = QSharedPointer<QCPGraphDataContainer>::create();
    data->set(points, /*alreadySorted=*/true);
    return data;
}

} // namespace

std::shared_ptr<const RunPlotData> RunPlotData::build(const sim::SimResult& result) {
    auto out = std::make_shared<RunPlotData>();
    // The converter keeps the capacity by value: it must not refer back into this function's frame.
    const auto pct = [](const sim::OccupancySeries& s) {
        return [capacity = s.capacityPartitionBytes](std::int64_t partitionBytes) {
            return capacity > 0 ? 100.0 * static_cast<double>(partitionBytes) / static_cast<double>(capacity) : 0.0;
        };
    };
    out->sbuf = stepData(result.sbuf.timePs, result.sbuf.partitionBytes, pct(result.sbuf));
    out->psum = stepData(result.psum.timePs, result.psum.partitionBytes, pct(result.psum));
    // bytes per ns is GB/s.
    out->dma = stepData(result.dma.timePs, result.dma.bytesPerNs, [](double v) { return v; });
    for (const QCPGraphData& point : *out->dma) {
        out->dmaPeakGBps = std::max(out->dmaPeakGBps, point.value);
    }
    const auto compute = core::computeBusy(result);
    out->compute = intervalData(compute);
    out->exposed = intervalData(core::subtract(core::dmaBusy(result), compute));
    return out;
}

} // namespace kl::views
