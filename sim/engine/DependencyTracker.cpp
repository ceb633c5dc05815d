#include "engine/DependencyTracker.h"

#include <algorithm>

namespace kl::sim {

Region regionOf(const KernelIr& ir, const AccessPattern& ap) {
    const Buffer& b = ir.buffers()[ap.buffer];
    const ElementRange r = elementRange(ir, ap);
    const std::int64_t eb = std::max<std::int64_t>(b.dtypeBytes, 1);
    Region out{r.lo * eb, r.hi * eb, 0, 1};
    if (b.memory != Memory::Hbm) {
        out.partLo = ap.partStart;
        out.partHi = static_cast<std::uint16_t>(ap.partStart + std::max<std::uint16_t>(ap.partCount, 1));
    }
    return out;
}

void DependencyTracker::reset(std::size_t bufferCount) {
    m_records.assign(bufferCount, {});
    m_spare.clear();
}

void DependencyTracker::query(std::uint32_t buffer, const Region& region, bool isWrite, Ready& ready) const {
    for (const Record& r : m_records[buffer]) {
        if ((isWrite || r.write) && r.end > ready.time && r.region.overlaps(region)) {
            ready.time = r.end;
            ready.instr = r.instr;
        }
    }
}

void DependencyTracker::record(std::uint32_t buffer, const Region& region, bool isWrite, TimePs end, std::uint32_t instr) {
    auto& list = m_records[buffer];
    if (list.capacity() == 0 && !m_spare.empty()) {
        list = std::move(m_spare.back());
        m_spare.pop_back();
    }
    std::erase_if(list, [&](const Record& r) {
        return region.contains(r.region) && r.end <= end && (isWrite || !r.write);
    });
    list.push_back({region, end, instr, isWrite});
    if (list.size() <= kMaxRecords) {
        return;
    }
    // Merge the two oldest records of the same kind as the oldest one.
    const bool kind = list.front().write;
    auto second = std::find_if(list.begin() + 1, list.end(), [&](const Record& r) { return r.write == kind; });
    if (second == list.end()) {
        second = list.begin() + 1; // the oldest is the only one of its kind: merge with the next, as a write
    }
    Record& a = list.front();
    a.write = a.write || second->write;
    a.region.partLo = std::min(a.region.partLo, second->region.partLo);
    a.region.partHi = std::max(a.region.partHi, second->region.partHi);
    a.region.byteLo = std::min(a.region.byteLo, second->region.byteLo);
    a.region.byteHi = std::max(a.region.byteHi, second->region.byteHi);
    if (second->end > a.end) {
        a.end = second->end;
        a.instr = second->instr;
    }
    list.erase(second);
}

void DependencyTracker::release(std::uint32_t buffer) {
    auto& list = m_records[buffer];
    if (list.capacity() > 0) {
        list.clear();
        m_spare.push_back(std::move(list));
        list = {};
    }
}

} // namespace kl::sim
