#include "findings/rules/RedundantLoadsRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 4> kThresholds = {"sbuf_fit_fraction", "min_redundant_pct",
                                                         "major_redundant_pct", "min_dma_active_pct"};

/// Identity of an HBM region as loaded by one program instance: buffer, offset, pattern, dtype and program id.
std::string regionKey(const sim::KernelIr& ir, const sim::Instruction& in, const sim::AccessPattern& ap) {
    std::string key;
    auto put = [&key](auto v) { key.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
    put(ap.buffer);
    put(ap.offset);
    put(ap.dtype);
    for (const sim::PatternDim& d : ir.pattern(ap)) {
        put(d.stride);
        put(d.count);
    }
    for (const std::int32_t p : ir.pid(in)) {
        put(p);
    }
    return key;
}

struct Seen {
    double cumAfterLast = 0; ///< bytes per partition loaded up to and including the last load of the region
    std::uint32_t loads = 0;
};

} // namespace

std::span<const std::string_view> RedundantLoadsRule::thresholds() const {
    return kThresholds;
}

void RedundantLoadsRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const double room = in.hardware.sbuf.partitionBytes * settings.value("sbuf_fit_fraction");
    const auto& instructions = in.ir.instructions();
    std::unordered_map<std::string, Seen> seen;
    std::unordered_map<std::uint32_t, double> gapOf; ///< reload index -> bytes per partition loaded since the last
    std::vector<std::uint32_t> reloads;
    double cum = 0;
    double loadBytes = 0;
    double redundantBytes = 0;
    std::uint32_t regionsReloaded = 0;
    std::uint32_t mostLoads = 0;
    for (const DmaTransfer& t : f.dma()) {
        if (t.direction != DmaDirection::Load || t.hbm == nullptr) {
            continue;
        }
        loadBytes += static_cast<double>(t.bytes);
        Seen& s = seen[regionKey(in.ir, instructions[t.index], *t.hbm)];
        if (s.loads > 0) {
            const double gap = cum - s.cumAfterLast;
            if (gap + t.bytesPerPartition <= room) {
                redundantBytes += static_cast<double>(t.bytes);
                reloads.push_back(t.index);
                gapOf[t.index] = gap;
                regionsReloaded += s.loads == 1 ? 1 : 0;
            }
        }
        ++s.loads;
        mostLoads = std::max(mostLoads, s.loads);
        cum += t.bytesPerPartition;
        s.cumAfterLast = cum;
    }
    const double redundantPct = pct(redundantBytes, loadBytes);
    if (reloads.empty() || redundantPct < settings.value("min_redundant_pct") ||
        f.dmaActivePct() < settings.value("min_dma_active_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    if (redundantPct >= settings.value("major_redundant_pct")) {
        finding.severity = Severity::Major;
    }
    finding.figures = {
        figure("redundant_load_pct", redundantPct, "%", settings.value("min_redundant_pct")),
        figure("redundant_bytes", redundantBytes, "B"),
        figure("load_bytes", loadBytes, "B"),
        figure("most_loads_of_one_region", mostLoads, "loads"),
        figure("dma_active_pct", f.dmaActivePct(), "%", settings.value("min_dma_active_pct")),
    };
    addLineEvidence(in, reloads, 3, finding.evidence, [&](const LineGroup& g) {
        double widest = 0;
        for (const std::uint32_t i : g.indices) {
            widest = std::max(widest, gapOf[i]);
        }
        return fmt::format("{}: {} loads of regions already loaded, with at most {} per partition loaded in between "
                           "(SBUF holds {} per partition)",
                           in.evidence.where(g.loc), g.indices.size(), sim::formatBytes(widest),
                           sim::formatBytes(in.hardware.sbuf.partitionBytes));
    });
    finding.suggestion =
        "Hoist the load out of the loop that repeats it: load the region once per reuse window (e.g. outside the inner "
        "loop, or as a block covering the loop) and keep it in SBUF while it is reused.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
