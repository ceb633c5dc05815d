#include "compare/RunComparison.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace kl::core {

namespace {

constexpr double kPsPerUs = 1e6;

/// TimelineData is moving from public arrays to packed storage read through accessors; this reads either.
template <typename Timeline, typename Counts> void countOps(const Timeline& tl, Counts& counts) {
    for (std::size_t i = 0; i < tl.size(); ++i) {
        if constexpr (requires { tl.op(i); }) {
            ++counts[static_cast<std::size_t>(tl.op(i))];
        } else {
            ++counts[static_cast<std::size_t>(tl.op[i])];
        }
    }
}

std::array<std::uint64_t, static_cast<std::size_t>(sim::Op::Count)> opCounts(const sim::SimResult& run) {
    std::array<std::uint64_t, static_cast<std::size_t>(sim::Op::Count)> counts{};
    countOps(run.timeline, counts);
    return counts;
}

/// Figures of both runs at once, so rows for operations that only one run uses still line up.
std::vector<ComparisonRow> buildRows(const sim::SimResult& a, const sim::SimResult& b) {
    const auto& sa = a.summary;
    const auto& sb = b.summary;
    std::vector<ComparisonRow> rows;
    auto add = [&](std::string key, std::string group, std::string label, std::string unit, double va, double vb) {
        rows.push_back({std::move(key), std::move(group), std::move(label), std::move(unit), va, vb});
    };
    add("total_us", "Time", "Total time", "us", static_cast<double>(sa.totalPs) / kPsPerUs,
        static_cast<double>(sb.totalPs) / kPsPerUs);
    for (std::size_t i = 0; i < sim::kSummaryEngines; ++i) {
        const auto e = static_cast<sim::Engine>(i);
        add(fmt::format("active_pct.{}", sim::engineName(e)), "Engines", fmt::format("{} active", sim::engineLabel(e)),
            "%", sa.engines[i].activePct, sb.engines[i].activePct);
    }
    add("mfu_pct", "Engines", "MFU", "%", sa.mfuPct, sb.mfuPct);
    add("dma_bytes_mib", "DMA", "DMA bytes", "MiB", static_cast<double>(sa.dmaBytes) / (1024.0 * 1024.0),
        static_cast<double>(sb.dmaBytes) / (1024.0 * 1024.0));
    add("dma_active_pct", "DMA", "DMA active", "%", sa.dmaActivePct, sb.dmaActivePct);
    add("dma_exposed_us", "DMA", "Exposed DMA", "us", static_cast<double>(sa.dmaExposedPs) / kPsPerUs,
        static_cast<double>(sb.dmaExposedPs) / kPsPerUs);
    add("sbuf_peak_kib", "Memory", "SBUF peak", "KiB", static_cast<double>(sa.sbufPeakBytes) / 1024.0,
        static_cast<double>(sb.sbufPeakBytes) / 1024.0);
    add("psum_peak_kib", "Memory", "PSUM peak", "KiB", static_cast<double>(sa.psumPeakBytes) / 1024.0,
        static_cast<double>(sb.psumPeakBytes) / 1024.0);
    add("instructions", "Instructions", "Instructions", "", static_cast<double>(sa.instructionCount),
        static_cast<double>(sb.instructionCount));
    const auto ca = opCounts(a);
    const auto cb = opCounts(b);
    for (std::size_t op = 0; op < ca.size(); ++op) {
        if (ca[op] == 0 && cb[op] == 0) {
            continue;
        }
        const std::string name(sim::opName(static_cast<sim::Op>(op)));
        add("ops." + name, "Instructions", name, "", static_cast<double>(ca[op]), static_cast<double>(cb[op]));
    }
    return rows;
}

} // namespace

std::optional<double> ComparisonRow::deltaPct() const {
    if (a == 0) {
        return std::nullopt;
    }
    return 100.0 * (b - a) / std::abs(a);
}

RunComparison::RunComparison(const sim::SimResult& a, const sim::SimResult& b, std::string labelA, std::string labelB)
    : m_rows(buildRows(a, b)), m_labelA(std::move(labelA)), m_labelB(std::move(labelB)) {}

const ComparisonRow* RunComparison::find(std::string_view key) const {
    for (const ComparisonRow& row : m_rows) {
        if (row.key == key) {
            return &row;
        }
    }
    return nullptr;
}

double RunComparison::speedup() const {
    const ComparisonRow* total = find("total_us");
    return total && total->b > 0 ? total->a / total->b : 0.0;
}

std::vector<ComparisonRow> runFigures(const sim::SimResult& run) {
    return buildRows(run, run);
}

std::string formatComparison(const RunComparison& comparison) {
    std::string out = fmt::format("{:<24} {:>14} {:>14} {:>14} {:>9}\n", "figure", comparison.labelA(),
                                  comparison.labelB(), "delta", "delta %");
    for (const ComparisonRow& row : comparison.rows()) {
        const std::string label = row.unit.empty() ? row.label : fmt::format("{} ({})", row.label, row.unit);
        const auto pct = row.deltaPct();
        out += fmt::format("{:<24} {:>14.2f} {:>14.2f} {:>+14.2f} {:>9}\n", label, row.a, row.b, row.delta(),
                           pct ? fmt::format("{:+.1f}%", *pct) : std::string("-"));
    }
    return out;
}

} // namespace kl::core
