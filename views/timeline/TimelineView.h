#pragma once

#include "ir/KernelIr.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimelineRows.h"

#include <QColor>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace kl::views {

/// An annotation drawn on the timeline: a translucent band over its time range with its number in the ruler.
struct AnnotationBand {
    TimePs startPs = 0;
    TimePs endPs = 0;
    int number = 0; ///< as in the annotation list
    QColor colour;  ///< by severity
    qint64 id = 0;
};

/// A Perfetto-style flow arrow drawn for the selected instruction: from what it waited on (with the wait cause),
/// from each other instruction it depends on through its operands (Producer), or to an instruction that waited
/// on it.
struct FlowArrow {
    using Kind = TimelineColours::FlowKind;
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    Kind kind = Kind::WaitedOn;
    QString label; ///< the wait cause and stall on a WaitedOn arrow; empty on the others
};

/// The simulated run on screen: one row per engine (TensorE as LoadStationary and MultiplyMoving rows) and
/// per DMA queue (collapsible into one row), under a time ruler.
///
/// Interaction, keyboard first as in Perfetto: W/S zoom in/out, A/D pan, F fit; the wheel zooms around the
/// cursor (Shift+wheel pans); a middle-button drag, or a drag on the ruler, pans; a left click selects the
/// instruction under the cursor; a left drag selects a time range. The view only paints: its draw list
/// (folded marks from TimelineRows) is rebuilt when the window or the size changes, never per paint.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    enum class ColourBy { Engine, Operation, SourceLine };

    explicit TimelineView(QWidget* parent = nullptr);

    /// `rows`: the result's rows built off the GUI thread (their cost grows with the instructions); null: built here.
    void setResult(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<TimelineRows> rows = {});
    /// The run's IR, for the selection's arrows from every producer (without it: only the one it waited on).
    void setIr(std::shared_ptr<const sim::KernelIr> ir);
    [[nodiscard]] QSize sizeHint() const override; ///< every row at full height
    [[nodiscard]] const TimelineRows* rows() const { return m_rows.get(); }

    void setVisibleRange(TimePs t0, TimePs t1);
    [[nodiscard]] TimePs visibleStart() const { return m_t0; }
    [[nodiscard]] TimePs visibleEnd() const { return m_t1; }
    void fit();
    /// The latest time the view scrolls and fits to, if later than its own run's end: a run stacked under
    /// another shares one time axis, so both views must accept the same ranges (0: the run's own end).
    void setExtentPs(TimePs endPs);
    void zoomBy(double factor, double anchorFraction = 0.5);
    void panBy(double fractionOfWidth);

    void setColourBy(ColourBy mode);
    [[nodiscard]] ColourBy colourBy() const { return m_colourBy; }
    /// The colour of an instruction's mark under the current colouring and palette (also the legend's).
    [[nodiscard]] QColor colourOf(std::uint32_t index) const;
    /// The arrows drawn for the selected instruction (empty without a selection).
    [[nodiscard]] const std::vector<FlowArrow>& flowArrows() const { return m_flows; }
    /// Busy share (0..1) of a row within the visible window: the percentage beside its name.
    [[nodiscard]] double rowBusyShare(std::size_t row) const;
    /// The lane label as drawn: name and busy percentage.
    [[nodiscard]] QString rowLabel(std::size_t row) const;
    void selectInstruction(std::optional<std::uint32_t> index);
    [[nodiscard]] std::optional<std::uint32_t> selectedInstruction() const { return m_selected; }
    /// Selects a spill or reload transfer (index into SimResult::spills.transfers) in place of an instruction.
    void selectSpill(std::optional<std::uint32_t> transfer);
    [[nodiscard]] std::optional<std::uint32_t> selectedSpill() const { return m_selectedSpill; }
    /// Dims every instruction that is not in `indices` (empty: nothing dimmed).
    void setHighlighted(std::vector<std::uint32_t> indices);

    void setAnnotationBands(std::vector<AnnotationBand> bands);
    [[nodiscard]] const std::vector<AnnotationBand>& annotationBands() const { return m_bands; }
    /// The current drag selection, if any (what "Annotate range" uses).
    [[nodiscard]] std::optional<std::pair<TimePs, TimePs>> selectedRange() const { return m_range; }
    /// Where the numbered tag of a band sits in the ruler (for tests and hit-testing).
    [[nodiscard]] QRect bandTagRect(const AnnotationBand& band) const;

    /// Geometry, public for tests: the x of a time, the time at an x, the y centre of a row.
    [[nodiscard]] double xOf(TimePs t) const;
    [[nodiscard]] TimePs timeAt(double x) const;
    [[nodiscard]] int rowCentreY(std::size_t row) const;
    [[nodiscard]] std::optional<std::size_t> rowAt(int y) const;
    [[nodiscard]] std::size_t markCount() const { return m_marks.size(); }
    /// The spill or reload under `pos` (index into SimResult::spills.transfers), and its hover text (public for
    /// tests, as the geometry above).
    [[nodiscard]] std::optional<std::uint32_t> spillAt(const QPoint& pos) const;
    [[nodiscard]] QString spillTooltip(std::uint32_t k) const;
    /// Rebuilds the draw list now (the view does this itself on every change; benchmarks call it to time it).
    void rebuildMarks();

    static constexpr int kLabelWidth = 120;
    static constexpr int kRulerHeight = 24;
    static constexpr int kRowHeight = 20;
    /// Least distance between time labels; the plots under the timeline tick with the same figure.
    static constexpr double kTickSpacingPx = 90;

signals:
    void visibleRangeChanged(qint64 t0, qint64 t1);
    void instructionSelected(qint64 index); ///< -1 when the selection was cleared
    void spillSelected(qint64 transfer);    ///< a click on a spill or reload mark
    void rangeSelected(qint64 t0, qint64 t1);
    /// The dragged range as it changes (also while dragging); t1 <= t0 when it was cleared.
    void selectionRangeChanged(qint64 t0, qint64 t1);
    void colourByChanged(kl::views::TimelineView::ColourBy mode);
    void annotationClicked(qint64 id);
    /// A run's marks were painted (after every such paint; the application times the first one).
    void runPainted();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] double plotWidth() const;
    [[nodiscard]] TimePs extentPs() const;
    /// The lane row under `pos`, the time there and how much time a thin mark may be missed by; none off the lanes.
    struct Probe {
        std::size_t row = 0;
        TimePs time = 0;
        TimePs slack = 0;
    };
    [[nodiscard]] std::optional<Probe> probeAt(const QPoint& pos) const;
    [[nodiscard]] std::optional<std::uint32_t> instructionAt(const QPoint& pos) const;
    [[nodiscard]] QString tooltipFor(std::uint32_t index) const;
    void paintRuler(QPainter& painter);
    void paintLabels(QPainter& painter);
    void paintMarks(QPainter& painter);
    void paintSelection(QPainter& painter);
    void paintDependencyArrows(QPainter& painter);
    void paintAnnotationBands(QPainter& painter);
    void paintAnnotationTags(QPainter& painter);
    void paintFlow(QPainter& painter, const FlowArrow& flow);
    void buildFlows();
    void setRange(std::optional<std::pair<TimePs, TimePs>> range);

    std::shared_ptr<TimelineRows> m_rows;
    std::shared_ptr<const sim::SimResult> m_result;
    std::shared_ptr<const sim::KernelIr> m_ir;
    TimePs m_t0 = 0;
    TimePs m_t1 = 1;
    TimePs m_extentPs = 0;
    std::vector<TimelineMark> m_marks;
    ColourBy m_colourBy = ColourBy::Engine;
    std::optional<std::uint32_t> m_selected;
    std::optional<std::uint32_t> m_selectedSpill;
    std::optional<bool> m_dmaExpandedChoice; ///< the user's last fold of the DMA queues, kept for later runs
    std::vector<FlowArrow> m_flows;          ///< arrows of the selected instruction
    std::vector<bool> m_highlighted;         ///< empty: nothing dimmed
    enum class Drag { None, Select, Pan } m_drag = Drag::None;
    QPoint m_pressPos;
    TimePs m_pressT0 = 0;
    TimePs m_pressT1 = 0;
    std::optional<std::pair<TimePs, TimePs>> m_range;
    std::vector<AnnotationBand> m_bands;
};

} // namespace kl::views
