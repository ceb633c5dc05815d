#pragma once

#include "result/SimResult.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kl::core {

/// One line of a comparison: a figure of run A, the same figure of run B, and how B differs.
struct ComparisonRow {
    std::string key;   ///< stable name for code and lessons: "total_us", "active_pct.tensor", "ops.nc_matmul"
    std::string group; ///< "Time", "Engines", "DMA", "Memory", "Instructions"
    std::string label; ///< for people: "Total time", "TensorE active"
    std::string unit;  ///< "us", "%", "MiB", "KiB", "" (a count)
    double a = 0;
    double b = 0;

    [[nodiscard]] double delta() const { return b - a; }
    /// (b - a) / a in percent; nullopt when a is 0 (a percentage of nothing says nothing).
    [[nodiscard]] std::optional<double> deltaPct() const;
};

/// Two runs set side by side (two kernels, or one kernel on two hardware profiles): total time, active % per
/// engine, DMA bytes, exposed DMA, SBUF and PSUM peaks and instruction counts by operation, each as A, B and
/// the difference. Every figure is read from the runs' own `summary` (or counted from their timelines for
/// the per-operation counts), so a comparison never disagrees with the status bar of either run.
///
/// Sample (`formatComparison`):
///     figure              A            B            delta        delta %
///     Total time (us)     51800.12     42960.40     -8839.72     -17.1%
class RunComparison {
public:
    RunComparison() = default;
    RunComparison(const sim::SimResult& a, const sim::SimResult& b, std::string labelA, std::string labelB);

    [[nodiscard]] const std::vector<ComparisonRow>& rows() const { return m_rows; }
    [[nodiscard]] const ComparisonRow* find(std::string_view key) const;
    [[nodiscard]] const std::string& labelA() const { return m_labelA; }
    [[nodiscard]] const std::string& labelB() const { return m_labelB; }
    /// A's total time over B's: how many times faster B is (0 when B took no time).
    [[nodiscard]] double speedup() const;

private:
    std::vector<ComparisonRow> m_rows;
    std::string m_labelA;
    std::string m_labelB;
};

/// The rows as a fixed-width text table (CLI, logs and golden tests).
[[nodiscard]] std::string formatComparison(const RunComparison& comparison);

/// The figures of one run keyed as in ComparisonRow::key (the "A" column of a run compared with itself).
[[nodiscard]] std::vector<ComparisonRow> runFigures(const sim::SimResult& run);

} // namespace kl::core
