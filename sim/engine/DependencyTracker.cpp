#include "engine/DependencyTracker.h"

#include <algorithm>

namespace kl::sim {

Region regionOf(const KernelIr& ir, const AccessPattern& ap) {
    const BufferFacts& b = ir.bufferFacts()[ap.buffer];
    return regionOf(ir, ap, b.dtypeBytes, b.memory == Memory::Hbm);
}

void DependencyTracker::reset(std::size_t bufferCount) {
    m_slot.assign(bufferCount, kNoIndex);
    m_lists.clear();
    m_spare.clear();
}

void DependencyTracker::query(std::uint32_t buffer, const Region& region, bool isWrite, Ready& ready) const {
    const std::uint32_t slot = m_slot[buffer];
    if (slot == kNoIndex) {
        return;
    }
    for (const Record& r : m_lists[slot]) {
        if ((isWrite || r.write) && r.end > ready.time && r.region.overlaps(region)) {
            ready.time = r.end;
            ready.instr = r.instr;
        }
    }
}

void DependencyTracker::record(std::uint32_t buffer, const Region& region, bool isWrite, TimePs end,
                               std::uint32_t instr) {
    std::uint32_t& slot = m_slot[buffer];
    if (slot == kNoIndex) {
        if (m_spare.empty()) {
            slot = static_cast<std::uint32_t>(m_lists.size());
            m_lists.emplace_back();
        } else {
            slot = m_spare.back();
            m_spare.pop_back();
        }
    }
    auto& list = m_lists[slot];
    std::erase_if(list,
                  [&](const Record& r) { return region.contains(r.region) && r.end <= end && (isWrite || !r.write); });
    list.push_back({region, end, instr, isWrite});
    if (list.size() <= kMaxRecords) {
        return;
    }
    // Collapse the oldest records (all but the newest kKeepRecent) into one bounding read and one bounding
    // write, each with the latest end. Old accesses have mostly finished, so the over-approximation rarely
    // delays anything; the recent ones stay exact. One pass every few records keeps the cost constant.
    const auto old = static_cast<std::ptrdiff_t>(list.size() - kKeepRecent);
    Record reads{};
    Record writes{};
    bool anyRead = false;
    bool anyWrite = false;
    for (auto it = list.begin(); it != list.begin() + old; ++it) {
        const Record& r = *it;
        Record& into = r.write ? writes : reads;
        bool& any = r.write ? anyWrite : anyRead;
        if (!any) {
            into = r;
            any = true;
            continue;
        }
        into.region.partLo = std::min(into.region.partLo, r.region.partLo);
        into.region.partHi = std::max(into.region.partHi, r.region.partHi);
        into.region.byteLo = std::min(into.region.byteLo, r.region.byteLo);
        into.region.byteHi = std::max(into.region.byteHi, r.region.byteHi);
        if (r.end > into.end) {
            into.end = r.end;
            into.instr = r.instr;
        }
    }
    list.erase(list.begin(), list.begin() + old);
    if (anyWrite)
        list.insert(list.begin(), writes);
    if (anyRead)
        list.insert(list.begin(), reads);
}

void DependencyTracker::release(std::uint32_t buffer) {
    std::uint32_t& slot = m_slot[buffer];
    if (slot != kNoIndex) {
        m_lists[slot].clear();
        m_spare.push_back(slot);
        slot = kNoIndex;
    }
}

} // namespace kl::sim
