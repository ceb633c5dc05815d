#include "findings/rules/CudaLinesUnmappedRule.h"

#include "findings/CudaScan.h"
#include "findings/rules/RuleSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::core::findings {

namespace {

constexpr std::array<std::string_view, 1> kThresholds = {"min_region_lines"};

struct Region {
    int first = 0;
    int last = 0;
    int codeLines = 0;
};

} // namespace

std::span<const std::string_view> CudaLinesUnmappedRule::thresholds() const {
    return kThresholds;
}

void CudaLinesUnmappedRule::check(const FindingsInput& in, const RuleSettings& settings,
                                  std::vector<Finding>& out) const {
    if (in.migration == nullptr) {
        return;
    }
    const MigrationSource& m = *in.migration;
    const CudaScan scan(m.cudaText, m.cudaKernel);
    auto linked = [&](int line) {
        return std::any_of(m.links.begin(), m.links.end(), [line](const MigrationSource::FileLink& fl) {
            return fl.link.state != LinkState::Rejected && fl.link.cudaFirst <= line && line <= fl.link.cudaLast;
        });
    };
    std::vector<Region> regions;
    Region open;
    int codeLines = 0;
    for (const int n : scan.dataLines()) {
        ++codeLines;
        if (linked(n)) {
            if (open.codeLines > 0) {
                regions.push_back(open);
            }
            open = Region{};
            continue;
        }
        if (open.codeLines == 0) {
            open.first = n;
        }
        open.last = n;
        ++open.codeLines;
    }
    if (open.codeLines > 0) {
        regions.push_back(open);
    }
    const int minLines = static_cast<int>(settings.value("min_region_lines"));
    std::erase_if(regions, [minLines](const Region& r) { return r.codeLines < minLines; });
    if (regions.empty()) {
        return;
    }
    int unmapped = 0;
    int largest = 0;
    for (const Region& r : regions) {
        unmapped += r.codeLines;
        largest = std::max(largest, r.codeLines);
    }
    Finding finding = makeFinding(settings);
    finding.figures = {
        figure("unmapped_data_lines", unmapped, "lines"),
        figure("unmapped_pct", pct(unmapped, codeLines), "%"),
        figure("data_lines", codeLines, "lines"),
        figure("largest_region", largest, "lines", minLines),
        figure("regions", static_cast<double>(regions.size()), "regions"),
    };
    EvidenceItem e;
    e.note =
        m.links.empty()
            ? fmt::format("the task has no CUDA<->NKI links; {} lines of the CUDA kernel compute on data", unmapped)
            : fmt::format("{} CUDA regions ({} lines computing on data) with no linked NKI lines", regions.size(),
                          unmapped);
    std::stable_sort(regions.begin(), regions.end(),
                     [](const Region& a, const Region& b) { return a.codeLines > b.codeLines; });
    for (std::size_t k = 0; k < regions.size() && k < kMaxRanges; ++k) {
        e.lines.push_back({SourceSide::Cuda, m.cudaFile, regions[k].first, regions[k].last});
    }
    std::sort(e.lines.begin(), e.lines.end(),
              [](const SourceRange& a, const SourceRange& b) { return a.firstLine < b.firstLine; });
    finding.evidence.push_back(std::move(e));
    finding.suggestion = "Link each CUDA block to the NKI lines that replace it (a `# cuda: A-B` comment on the NKI "
                         "side, or a link in the review), or say in a comment why it has no NKI counterpart.";
    out.push_back(std::move(finding));
}

} // namespace kl::core::findings
