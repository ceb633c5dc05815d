#include "findings/Evidence.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kl::core::findings {

using sim::TimePs;

std::vector<std::pair<TimePs, TimePs>> mergedIntervals(std::vector<std::pair<TimePs, TimePs>> raw) {
    std::sort(raw.begin(), raw.end());
    std::vector<std::pair<TimePs, TimePs>> out;
    for (const auto& [s, e] : raw) {
        if (!out.empty() && s <= out.back().second) {
            out.back().second = std::max(out.back().second, e);
        } else if (s < e) {
            out.emplace_back(s, e);
        }
    }
    return out;
}

std::vector<InstructionRange> indexRanges(std::span<const std::uint32_t> indices) {
    std::vector<InstructionRange> out;
    for (const std::uint32_t i : indices) {
        if (!out.empty() && i <= out.back().last + 1) {
            out.back().last = std::max(out.back().last, i);
            continue;
        }
        if (out.size() == kMaxRanges) {
            break;
        }
        out.push_back({i, i});
    }
    return out;
}

std::vector<TimeRange> longestRanges(const std::vector<std::pair<TimePs, TimePs>>& intervals) {
    std::vector<std::pair<TimePs, TimePs>> kept = intervals;
    if (kept.size() > kMaxRanges) {
        std::stable_sort(kept.begin(), kept.end(),
                         [](const auto& a, const auto& b) { return a.second - a.first > b.second - b.first; });
        kept.resize(kMaxRanges);
        std::sort(kept.begin(), kept.end());
    }
    std::vector<TimeRange> out;
    out.reserve(kept.size());
    for (const auto& [s, e] : kept) {
        out.push_back({s, e});
    }
    return out;
}

EvidenceItem EvidenceBuilder::item(std::string note, std::span<const std::uint32_t> indices) const {
    EvidenceItem e;
    e.note = std::move(note);
    e.instructionCount = indices.size();
    e.instructions = indexRanges(indices);
    const auto& tl = m_result.timeline;
    std::vector<std::pair<TimePs, TimePs>> spans;
    for (const std::uint32_t i : indices) {
        if (i >= tl.size()) {
            continue;
        }
        spans.emplace_back(tl.startPs(i), tl.endPs(i));
    }
    const auto merged = mergedIntervals(std::move(spans));
    e.times = longestRanges(merged);
    for (const LineGroup& g : byLine(indices)) {
        if (e.lines.size() == kMaxRanges) {
            break;
        }
        if (g.loc.line > 0) {
            e.lines.push_back(line(g.loc));
        }
    }
    return e;
}

std::vector<LineGroup> EvidenceBuilder::byLine(std::span<const std::uint32_t> indices) const {
    std::map<std::pair<std::uint32_t, std::uint32_t>, LineGroup> groups;
    const auto& tl = m_result.timeline;
    for (const std::uint32_t i : indices) {
        const sim::SourceLoc loc =
            i < m_ir.instructions().size() ? m_ir.innermostLoc(m_ir.instructions()[i]) : sim::SourceLoc{};
        LineGroup& g = groups[{loc.file, loc.line}];
        g.loc = loc;
        g.indices.push_back(i);
        if (i < tl.size()) {
            g.busyPs += tl.durationPs(i);
        }
    }
    std::vector<LineGroup> out;
    out.reserve(groups.size());
    for (auto& [key, g] : groups) {
        out.push_back(std::move(g));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const LineGroup& a, const LineGroup& b) { return a.busyPs > b.busyPs; });
    return out;
}

SourceRange EvidenceBuilder::line(sim::SourceLoc loc) const {
    SourceRange r;
    r.side = SourceSide::Nki;
    if (loc.file < m_ir.files.size()) {
        r.file = m_ir.files[loc.file];
    }
    r.firstLine = r.lastLine = static_cast<int>(loc.line);
    return r;
}

std::string EvidenceBuilder::where(sim::SourceLoc loc) const {
    if (loc.line == 0) {
        return "(no source line)";
    }
    const SourceRange r = line(loc);
    return fmt::format("{}:{}", r.file.empty() ? "?" : r.file, r.firstLine);
}

} // namespace kl::core::findings
