#pragma once

#include "result/SimResult.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kl::views {

using sim::TimePs;

/// One drawable mark: a single instruction, or several that are too narrow to tell apart folded into one.
inline constexpr std::uint32_t kNoInstruction = UINT32_MAX;

struct TimelineMark {
    double x0 = 0;
    double x1 = 0;
    std::uint32_t row = 0;
    std::uint32_t first = 0; ///< program-order index of the first instruction, kNoInstruction on the DMA summary
    std::uint32_t count = 1; ///< 1 = a single instruction; more = a folded run
    /// Share of the mark's span its instructions are busy (1 for a single instruction). Estimated from at
    /// most kBusySamples of a folded run's instructions, so building marks stays independent of how many
    /// instructions a pixel holds.
    float busy = 1;
    /// A spill or reload transfer (index into SimResult::spills.transfers), drawn on its DMA queue's row;
    /// kNoInstruction for instruction marks. `first` is kNoInstruction on these.
    std::uint32_t spill = kNoInstruction;
};

inline constexpr std::size_t kBusySamples = 8;

/// The rows of the timeline and, for each row, the instructions on it in time order. Built once per run.
///
/// Every row is an in-order unit (TensorE LoadStationary and MultiplyMoving, VectorE, ScalarE, GpSimdE, each
/// DMA queue), so its instructions neither overlap nor reorder: starts and ends are both sorted, and a time
/// can be found by binary search. The folding pass (as in Tracy) walks a row from the left edge; a run of
/// instructions narrower than `minWidthPx` becomes one mark and the walk jumps past it by binary search, so
/// building the marks costs O(rows x pixels x log n), whatever the number of instructions.
///
/// Storage: one 32-bit index (row membership) and one 64-bit running busy total (for the lane labels' busy
/// percentages) per instruction; times are read from the SimResult.
class TimelineRows {
public:
    /// CoreHeader: with LNC 2, the collapsible header above each physical core's rows (no marks of its own).
    enum class Kind : std::uint8_t { LoadStationary, Engine, DmaQueue, DmaSummary, CoreHeader };

    explicit TimelineRows(std::shared_ptr<const sim::SimResult> result);

    [[nodiscard]] std::size_t rowCount() const { return m_visible.size(); }
    [[nodiscard]] std::string rowName(std::size_t row) const;
    [[nodiscard]] Kind rowKind(std::size_t row) const;
    [[nodiscard]] std::size_t rowSize(std::size_t row) const;
    /// The row an instruction is drawn on (its MultiplyMoving row for a matmul), or nullopt if hidden.
    [[nodiscard]] std::optional<std::size_t> rowOf(std::uint32_t index) const;

    /// Whether the DMA queues are shown one row each (expanded) or as one summary row of busy time per core.
    /// A run opens expanded when each core uses at most this many queues; with more (sixteen is common), the
    /// queue rows would push the engines and the plots out of the first view, so they open folded.
    static constexpr std::size_t kQueuesOpenExpanded = 4;
    void setDmaExpanded(bool expanded);
    [[nodiscard]] bool dmaExpanded() const { return m_dmaExpanded; }

    /// LNC 2: physical cores, each a group of rows under a header that folds it away. 1 for one core (no headers).
    [[nodiscard]] std::uint32_t coreCount() const { return static_cast<std::uint32_t>(m_coreExpanded.size()); }
    void setCoreExpanded(std::uint32_t core, bool expanded);
    [[nodiscard]] bool coreExpanded(std::uint32_t core) const {
        return core < m_coreExpanded.size() && m_coreExpanded[core];
    }
    /// The core a row belongs to (a header's own core).
    [[nodiscard]] std::uint32_t rowCore(std::size_t row) const;
    /// The spill or reload under time `t` on a DMA queue row (index into SimResult::spills.transfers).
    [[nodiscard]] std::optional<std::uint32_t> spillAt(std::size_t row, TimePs t, TimePs slack) const;

    /// Appends the marks of every row for the time window [t0, t1) drawn `widthPx` wide.
    void buildMarks(TimePs t0, TimePs t1, double widthPx, double minWidthPx, std::vector<TimelineMark>& out) const;

    /// The instruction on `row` under time `t`, allowing `slack` either side for narrow ones.
    [[nodiscard]] std::optional<std::uint32_t> hitTest(std::size_t row, TimePs t, TimePs slack) const;

    /// Start and end of an instruction as drawn on `row` (the LoadStationary part of a matmul on that row).
    [[nodiscard]] std::pair<TimePs, TimePs> interval(std::size_t row, std::size_t k) const;
    [[nodiscard]] std::uint32_t instructionAt(std::size_t row, std::size_t k) const;

    /// Busy time of `row` within [t0, t1): what the lane label's percentage shows. O(log n) by prefix sums.
    [[nodiscard]] TimePs busyPs(std::size_t row, TimePs t0, TimePs t1) const;
    /// The instruction before `index` on its row (what an engine or queue wait waited for), if any.
    [[nodiscard]] std::optional<std::uint32_t> previousOnRow(std::uint32_t index) const;

    [[nodiscard]] TimePs endTime() const { return m_end; }
    [[nodiscard]] const sim::SimResult& result() const { return *m_result; }
    [[nodiscard]] std::size_t memoryBytes() const;

private:
    struct Row {
        std::string name;
        Kind kind = Kind::Engine;
        std::uint16_t lane = 0;
        std::vector<std::uint32_t> indices; ///< program-order indices (Engine, DmaQueue); LS records (LoadStationary)
        std::vector<std::uint32_t> spills;  ///< spill/reload transfers on this DMA queue, in start order
        std::uint32_t core = 0;
        TimePs longest = 0;             ///< longest interval: how far left of a window to start looking
        std::vector<TimePs> busyPrefix; ///< busyPrefix[k]: busy time of intervals [0, k)
    };
    void buildRowMarks(std::size_t row, TimePs t0, TimePs t1, double pxPerPs, double minWidthPx,
                       std::vector<TimelineMark>& out) const;
    [[nodiscard]] std::size_t firstEndingAfter(std::size_t row, TimePs t) const;
    /// Busy share of instructions [first, end) of `row`, which span `span` from the first start.
    [[nodiscard]] float busyShare(std::size_t row, std::size_t first, std::size_t end, TimePs span) const;
    [[nodiscard]] TimePs longest(std::size_t row) const;
    [[nodiscard]] std::size_t firstStartingAtOrAfter(std::size_t row, std::size_t from, TimePs t) const;
    void rebuildVisibleRows();
    void buildBusyPrefixes();
    [[nodiscard]] const std::vector<TimePs>& busyPrefix(std::size_t row) const;

    std::shared_ptr<const sim::SimResult> m_result;
    /// m_visible entries that are not rows of m_allRows: core c's DMA summary and core c's header.
    static constexpr std::uint32_t kSummaryRow = UINT32_MAX - 7;
    static constexpr std::uint32_t kHeaderRow = UINT32_MAX - 15;
    [[nodiscard]] static bool isSummary(std::uint32_t v) { return v >= kSummaryRow; }
    [[nodiscard]] static bool isHeader(std::uint32_t v) { return v >= kHeaderRow && v < kSummaryRow; }
    struct DmaBusy {
        std::vector<TimePs> start; ///< union of one core's DMA queues' busy intervals, for its summary row
        std::vector<TimePs> end;
        std::vector<TimePs> prefix;
        TimePs longest = 0;
    };
    [[nodiscard]] const DmaBusy& summaryOf(std::size_t row) const;
    void buildSpillMarks(std::size_t row, TimePs t0, TimePs t1, double pxPerPs, double minWidthPx,
                         std::vector<TimelineMark>& out) const;
    [[nodiscard]] const Row* rowData(std::size_t row) const;

    std::vector<Row> m_allRows;           ///< LS, MM, Vector, Scalar, GpSimd (when used), then each used DMA queue
    std::vector<std::uint32_t> m_visible; ///< shown rows: indices into m_allRows, or kSummaryRow for all DMA
    std::vector<DmaBusy> m_dmaBusy;       ///< per core
    std::vector<bool> m_coreExpanded;     ///< per core
    bool m_dmaExpanded = true;
    TimePs m_end = 0;
};

} // namespace kl::views
