#pragma once

#include "findings/Roofline.h"

#include <QWidget>

#include <optional>

class QCPGraph;
class QCPItemText;
class QCustomPlot;

namespace kl::views {

/// The run on its hardware's roofline (core/findings/Roofline.h), log-log: arithmetic intensity (FLOP per HBM
/// byte) across, achieved FLOP/s up; the memory roof (DMA bandwidth from HBM times intensity) up to the ridge
/// point, TensorE's BF16 peak after it, and the kernel's point labelled with the share of the roof it attains.
/// A run without FLOPs or HBM traffic has no place on the plot; the plot says so instead of a point.
class RooflinePlot : public QWidget {
    Q_OBJECT
public:
    explicit RooflinePlot(QWidget* parent = nullptr);

    void setPoint(std::optional<core::findings::RooflinePoint> point);

    [[nodiscard]] QCustomPlot* plot() const { return m_plot; }
    /// The graphs, for tests: the memory roof (two points: the left edge and the ridge), the compute roof (the
    /// ridge and the right edge) and the kernel's point (one point, or none).
    [[nodiscard]] QCPGraph* memoryRoof() const { return m_memoryRoof; }
    [[nodiscard]] QCPGraph* computeRoof() const { return m_computeRoof; }
    [[nodiscard]] QCPGraph* kernelPoint() const { return m_point; }
    [[nodiscard]] QString caption() const;

private:
    void drawRoofs(const core::findings::RooflinePoint& p, double xMin, double xMax);

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_memoryRoof = nullptr;
    QCPGraph* m_computeRoof = nullptr;
    QCPGraph* m_point = nullptr;
    QCPItemText* m_pointLabel = nullptr;
    QCPItemText* m_message = nullptr;
};

} // namespace kl::views
