#include "numerics/NumericsResult.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace kl::core {

namespace {

struct ComparisonInfo {
    ComparisonKind kind;
    std::string_view key;
    std::string_view label;
};

constexpr std::array<ComparisonInfo, kComparisonKinds> kComparisonInfo = {{
    {ComparisonKind::NkiVsExact, "nki_vs_exact", "NKI vs exact"},
    {ComparisonKind::GpuVsExact, "gpu_vs_exact", "GPU vs exact"},
    {ComparisonKind::NkiVsGpu, "nki_vs_gpu", "NKI vs GPU"},
}};

constexpr bool infoInOrder() {
    for (std::size_t i = 0; i < kComparisonInfo.size(); ++i) {
        if (static_cast<std::size_t>(kComparisonInfo[i].kind) != i || kAllComparisons[i] != kComparisonInfo[i].kind) {
            return false;
        }
    }
    return true;
}
static_assert(infoInOrder(), "kComparisonInfo must follow ComparisonKind");

} // namespace

std::string_view comparisonKey(ComparisonKind kind) {
    return kComparisonInfo[static_cast<std::size_t>(kind)].key;
}

std::string_view comparisonLabel(ComparisonKind kind) {
    return kComparisonInfo[static_cast<std::size_t>(kind)].label;
}

bool NumericsResult::passed() const {
    return failedCount() == 0;
}

int NumericsResult::comparisonCount() const {
    int n = 0;
    for (const NumericsOutput& out : outputs) {
        for (const auto& c : out.comparisons) {
            n += c.has_value() ? 1 : 0;
        }
    }
    return n;
}

int NumericsResult::failedCount() const {
    int n = 0;
    for (const NumericsOutput& out : outputs) {
        for (const auto& c : out.comparisons) {
            n += c.has_value() && !c->passed ? 1 : 0;
        }
    }
    return n;
}

std::string numericsNumber(double value) {
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    return fmt::format("{}", value);
}

std::string toleranceSummary(const NumericsResult& result) {
    std::vector<std::pair<double, double>> pairs;
    for (const NumericsOutput& out : result.outputs) {
        for (const auto& c : out.comparisons) {
            if (!c) {
                continue;
            }
            const std::pair<double, double> p{c->rtol, c->atol};
            bool seen = false;
            for (const auto& q : pairs) {
                seen = seen || (q.first == p.first && q.second == p.second);
            }
            if (!seen) {
                pairs.push_back(p);
            }
        }
    }
    std::string text = result.toleranceStandard.empty() ? std::string("default") : result.toleranceStandard;
    std::string figures;
    for (const auto& [rtol, atol] : pairs) {
        figures +=
            fmt::format("{}rtol {}, atol {}", figures.empty() ? "" : "; ", numericsNumber(rtol), numericsNumber(atol));
    }
    if (!figures.empty() || result.toleranceOverridden) {
        text += " (" + figures +
                (result.toleranceOverridden ? std::string(figures.empty() ? "" : ", ") + "overridden" : std::string()) +
                ")";
    }
    return text;
}

} // namespace kl::core
