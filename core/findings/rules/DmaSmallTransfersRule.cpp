#include "findings/rules/DmaSmallTransfersRule.h"

#include "findings/rules/RuleSupport.h"
#include "output/TextReport.h"

#include <fmt/format.h>

#include <array>

namespace kl::core::findings {

namespace {
constexpr std::array<std::string_view, 5> kThresholds = {"efficient_bytes_per_partition", "min_small_share_pct",
                                                         "min_dma_active_pct", "major_small_share_pct",
                                                         "major_dma_active_pct"};
}

std::span<const std::string_view> DmaSmallTransfersRule::thresholds() const {
    return kThresholds;
}

void DmaSmallTransfersRule::check(const FindingsInput& in, const RuleSettings& settings,
                                  std::vector<Finding>& out) const {
    const RunFacts& f = in.facts;
    const double efficient = settings.value("efficient_bytes_per_partition");
    sim::TimePs allPs = 0;
    sim::TimePs smallPs = 0;
    std::vector<std::uint32_t> small;
    std::vector<double> sizes;
    for (const DmaTransfer& t : f.dma()) {
        if (t.direction == DmaDirection::OnChip) {
            continue;
        }
        const sim::TimePs d = f.durationPs(t.index);
        allPs += d;
        if (t.bytesPerPartition < efficient) {
            smallPs += d;
            small.push_back(t.index);
            sizes.push_back(t.bytesPerPartition);
        }
    }
    const double smallShare = pct(static_cast<double>(smallPs), static_cast<double>(allPs));
    const double dmaActive = f.dmaActivePct();
    if (small.empty() || smallShare < settings.value("min_small_share_pct") ||
        dmaActive < settings.value("min_dma_active_pct")) {
        return;
    }
    Finding finding = makeFinding(settings);
    if (smallShare >= settings.value("major_small_share_pct") && dmaActive >= settings.value("major_dma_active_pct")) {
        finding.severity = Severity::Major;
    }
    const double typical = median(sizes);
    finding.figures = {
        figure("small_transfer_time_pct", smallShare, "%", settings.value("min_small_share_pct")),
        figure("median_bytes_per_partition", typical, "B", efficient),
        figure("small_transfers", static_cast<double>(small.size()), "transfers"),
        figure("dma_active_pct", dmaActive, "%", settings.value("min_dma_active_pct")),
        figure("dma_efficiency_pct", 100.0 * in.hardware.dmaEfficiency(typical), "%"),
    };
    addLineEvidence(in, small, 4, finding.evidence, [&](const LineGroup& g) {
        const DmaTransfer* t = f.transferAt(g.indices.front());
        const double bpp = t != nullptr ? t->bytesPerPartition : 0;
        return fmt::format("{}: {} transfers of {} per partition over {} partitions (DMA efficiency {:.0f} %)",
                           in.evidence.where(g.loc), g.indices.size(), sim::formatBytes(bpp),
                           t != nullptr ? t->partitions : 0, 100.0 * in.hardware.dmaEfficiency(bpp));
    });
    finding.suggestion = fmt::format(
        "Move at least {} per partition in each DMA: load or store several tiles' worth in one transfer (a wider "
        "free dimension, or a block of tiles) and slice it in SBUF.",
        sim::formatBytes(efficient));
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
