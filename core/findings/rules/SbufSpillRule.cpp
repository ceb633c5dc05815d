#include "findings/rules/SbufSpillRule.h"

#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 1> kThresholds = {"min_spill_bytes_pct"};

} // namespace

std::span<const std::string_view> SbufSpillRule::thresholds() const {
    return kThresholds;
}

void SbufSpillRule::check(const FindingsInput& in, const RuleSettings& settings, std::vector<Finding>& out) const {
    const sim::SpillRecord& spills = in.result.spills;
    const std::int64_t spillBytes = spills.sbuf.bytes + spills.psum.bytes;
    if (spills.transfers.empty() || spillBytes <= 0) {
        return;
    }
    // Spill traffic against the kernel's own DMA bytes: a few bytes moved once is not worth a reviewer's time.
    const double ownBytes = static_cast<double>(std::max<std::int64_t>(in.result.summary.dmaBytes - spillBytes, 1));
    const double spillPct = 100.0 * static_cast<double>(spillBytes) / ownBytes;
    if (spillPct < settings.value("min_spill_bytes_pct")) {
        return;
    }
    sim::TimePs busy = 0;
    std::vector<std::uint32_t> needing; // the instructions that needed the room, for their source lines
    std::set<std::uint32_t> tiles;
    for (const sim::SpillTransfer& t : spills.transfers) {
        busy += t.endPs - t.startPs;
        tiles.insert(t.buffer);
        if (t.kind == sim::DmaKind::Spill && t.forIndex != sim::kNoIndex) {
            needing.push_back(t.forIndex);
        }
    }
    std::ranges::sort(needing);
    needing.erase(std::unique(needing.begin(), needing.end()), needing.end());
    Finding finding = makeFinding(settings);
    finding.figures = {
        figure("spill_bytes_pct", spillPct, "%", settings.value("min_spill_bytes_pct")),
        figure("spill_bytes", static_cast<double>(spillBytes), "B"),
        figure("spill_transfers", static_cast<double>(spills.transfers.size()), "transfers"),
        figure("spilled_tiles", static_cast<double>(tiles.size()), "tiles"),
        figure("spill_transfer_time_ns", static_cast<double>(busy) / 1000.0, "ns"),
    };
    addLineEvidence(in, needing, 3, finding.evidence, [&](const LineGroup& g) {
        return fmt::format("{}: needed room that live tiles held, so a tile was written to HBM and read back later",
                           in.evidence.where(g.loc));
    });
    finding.suggestion =
        "Tile the computation so its live tiles fit SBUF (192 KiB per partition on trn1 and trn2): process the "
        "free dimension in chunks and reuse each chunk's tiles, instead of keeping whole rows resident.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
