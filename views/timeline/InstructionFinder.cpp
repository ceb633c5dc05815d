#include "timeline/InstructionFinder.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace kl::views {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool parseNumber(const std::string& s, std::uint32_t& out) {
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
}

// "41", "line 41", ":41", "30-35", "line 30-35" -> [first, last]; false when the query is not about lines.
bool parseLines(std::string q, std::uint32_t& first, std::uint32_t& last) {
    if (q.starts_with("line")) {
        q = trim(q.substr(4));
    } else if (q.starts_with(":")) {
        q = trim(q.substr(1));
    }
    const auto dash = q.find('-');
    if (dash == std::string::npos) {
        if (!parseNumber(q, first)) {
            return false;
        }
        last = first;
        return true;
    }
    return parseNumber(trim(q.substr(0, dash)), first) && parseNumber(trim(q.substr(dash + 1)), last) && first <= last;
}

} // namespace

std::vector<std::uint32_t> findInstructions(const sim::SimResult& result, const std::string& query) {
    std::vector<std::uint32_t> found;
    const std::string q = lower(trim(query));
    if (q.empty()) {
        return found;
    }
    const auto& tl = result.timeline;
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    if (parseLines(q, first, last)) {
        for (std::uint32_t i = 0; i < tl.size(); ++i) {
            if (tl.line(i) >= first && tl.line(i) <= last) {
                found.push_back(i);
            }
        }
        return found;
    }
    // Match the operation or the lane, so "dma", "scalar" and "nc_matmul" all work.
    std::vector<bool> opMatches(static_cast<std::size_t>(sim::Op::Count), false);
    for (std::size_t op = 0; op < opMatches.size(); ++op) {
        opMatches[op] = std::string(sim::opName(static_cast<sim::Op>(op))).find(q) != std::string::npos;
    }
    std::vector<bool> laneMatches(std::max<std::uint32_t>(result.laneCount, sim::kComputeLanes), false);
    for (std::uint16_t lane = 0; lane < laneMatches.size(); ++lane) {
        laneMatches[lane] = result.laneLabel(lane).find(q) != std::string::npos;
    }
    for (std::uint32_t i = 0; i < tl.size(); ++i) {
        const bool laneHit = tl.lane(i) < laneMatches.size() && laneMatches[tl.lane(i)];
        if (opMatches[static_cast<std::size_t>(tl.op(i))] || laneHit) {
            found.push_back(i);
        }
    }
    return found;
}

} // namespace kl::views
