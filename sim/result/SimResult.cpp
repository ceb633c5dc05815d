#include "result/SimResult.h"

#include <algorithm>

namespace kl::sim {

std::int64_t TimelineData::Wide::get(std::size_t i) const {
    const auto it = std::lower_bound(entries.begin(), entries.end(), i,
                                     [](const auto& e, std::size_t index) { return e.first < index; });
    return it != entries.end() && it->first == i ? it->second : 0;
}

void TimelineData::Wide::set(std::size_t i, std::int64_t value) {
    const auto index = static_cast<std::uint32_t>(i);
    if (entries.empty() || entries.back().first < index) {
        entries.emplace_back(index, value); // appending in program order: the common case
        return;
    }
    const auto it = std::lower_bound(entries.begin(), entries.end(), index,
                                     [](const auto& e, std::uint32_t k) { return e.first < k; });
    if (it != entries.end() && it->first == index) {
        it->second = value;
    } else {
        entries.insert(it, {index, value});
    }
}

void TimelineData::Wide::erase(std::size_t i) {
    if (entries.empty() || entries.back().first < i) {
        return; // appending: nothing stored for i yet
    }
    const auto it = std::lower_bound(entries.begin(), entries.end(), i,
                                     [](const auto& e, std::size_t index) { return e.first < index; });
    if (it != entries.end() && it->first == i) {
        entries.erase(it);
    }
}

void TimelineData::reserve(std::size_t instructions, std::size_t loadStationaries) {
    m_startBase.reserve((instructions + kBlock - 1) / kBlock);
    m_startOff.reserve(instructions);
    m_duration.reserve(instructions);
    m_stall.reserve(instructions);
    m_stallHigh.reserve(instructions);
    m_waitBack.reserve(instructions);
    m_loc.reserve(instructions);
    m_lane.reserve(instructions);
    m_op.reserve(instructions);
    m_cause.reserve(instructions);
    m_lsIndex.reserve(loadStationaries);
    m_lsLead.reserve(loadStationaries);
    m_lsDuration.reserve(loadStationaries);
}

void TimelineData::putStart(std::size_t i, TimePs value) {
    const TimePs off = value - m_startBase[i / kBlock];
    if (off > std::numeric_limits<std::int32_t>::min() && off <= std::numeric_limits<std::int32_t>::max()) {
        m_startOff[i] = static_cast<std::int32_t>(off);
        m_wideStart.erase(i);
    } else {
        m_startOff[i] = kWideOffset;
        m_wideStart.set(i, value);
    }
}

namespace {

/// The narrow field for `value`, or the sentinel (with the exact value in `wide`).
template <typename Wide> std::uint32_t narrow32(std::size_t i, std::int64_t value, Wide& wide) {
    if (value >= 0 && value < 0xffffffffLL) {
        wide.erase(i);
        return static_cast<std::uint32_t>(value);
    }
    wide.set(i, value);
    return 0xffffffffu;
}

} // namespace

void TimelineData::putDuration(std::size_t i, TimePs value) {
    m_duration[i] = narrow32(i, value, m_wideDuration);
}

void TimelineData::putStall(std::size_t i, TimePs value) {
    if (value >= 0 && value < kStallLimit) {
        m_stall[i] = static_cast<std::uint32_t>(value);
        m_stallHigh[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> 32);
        m_wideStall.erase(i);
    } else {
        m_stall[i] = kWide32;
        m_stallHigh[i] = kWide8;
        m_wideStall.set(i, value);
    }
}

void TimelineData::putWait(std::size_t i, std::uint32_t value) {
    if (value == kNoIndex) {
        m_waitBack[i] = 0;
        m_wideWait.erase(i);
    } else if (value < i && i - value < kWide16) {
        m_waitBack[i] = static_cast<std::uint16_t>(i - value);
        m_wideWait.erase(i);
    } else {
        m_waitBack[i] = kWide16;
        m_wideWait.set(i, value);
    }
}

std::uint16_t TimelineData::locIndex(SourceLoc loc) {
    const std::uint64_t key = ((static_cast<std::uint64_t>(loc.file) << 32) | loc.line) + 1; // 0 = empty slot
    auto& slot = m_locCache[(loc.line * 31u + loc.file) % m_locCache.size()];
    if (slot.first == key) {
        return slot.second;
    }
    std::uint16_t index = 0;
    if (const auto it = m_locMap.find(key); it != m_locMap.end()) {
        index = it->second;
    } else {
        if (m_locs.size() >= kWide16) {
            return kWide16; // table full: the caller keeps this one in the overflow table
        }
        index = static_cast<std::uint16_t>(m_locs.size());
        m_locs.push_back(loc);
        m_locMap.emplace(key, index);
    }
    slot = {key, index};
    return index;
}

void TimelineData::append(const Record& r) {
    append(std::span<const Record>(&r, 1));
}

void TimelineData::append(std::span<const Record> records) {
    // Each array grows once per batch; then every field is written in place. The common case inline:
    // every value fits its narrow field and nothing is stored for an index yet.
    const std::size_t first = size();
    const std::size_t n = records.size();
    m_startOff.resize(first + n);
    m_duration.resize(first + n);
    m_stall.resize(first + n);
    m_stallHigh.resize(first + n);
    m_waitBack.resize(first + n);
    m_loc.resize(first + n);
    m_lane.resize(first + n);
    m_cause.resize(first + n);
    m_op.resize(first + n); // last: size() is m_op's
    for (std::size_t k = 0; k < n; ++k) {
        const Record& r = records[k];
        const std::size_t i = first + k;
        if (i % kBlock == 0) {
            m_startBase.push_back(r.mainStartPs);
        }
        if (!m_irId.empty() || r.irId != i) {
            if (m_irId.empty()) {
                m_irId.reserve(m_op.capacity());
                for (std::size_t id = 0; id < i; ++id) {
                    m_irId.push_back(static_cast<std::uint32_t>(id));
                }
            }
            m_irId.push_back(r.irId);
        }
        const TimePs off = r.mainStartPs - m_startBase.back();
        if (off > std::numeric_limits<std::int32_t>::min() && off <= std::numeric_limits<std::int32_t>::max()) {
            m_startOff[i] = static_cast<std::int32_t>(off);
        } else {
            m_startOff[i] = kWideOffset;
            m_wideStart.set(i, r.mainStartPs);
        }
        const TimePs duration = r.endPs - r.mainStartPs;
        m_duration[i] = duration >= 0 && duration < TimePs{kWide32} ? static_cast<std::uint32_t>(duration)
                                                                    : narrow32(i, duration, m_wideDuration);
        if (r.stallPs >= 0 && r.stallPs < kStallLimit) {
            m_stall[i] = static_cast<std::uint32_t>(r.stallPs);
            m_stallHigh[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(r.stallPs) >> 32);
        } else {
            m_stall[i] = kWide32;
            m_stallHigh[i] = kWide8;
            m_wideStall.set(i, r.stallPs);
        }
        if (r.waitOn == kNoIndex) {
            m_waitBack[i] = 0;
        } else if (r.waitOn < i && i - r.waitOn < kWide16) {
            m_waitBack[i] = static_cast<std::uint16_t>(i - r.waitOn);
        } else {
            m_waitBack[i] = kWide16;
            m_wideWait.set(i, r.waitOn);
        }
        const std::uint16_t loc = locIndex(r.loc);
        m_loc[i] = loc;
        if (loc == kWide16) {
            m_wideLoc.set(i, static_cast<std::int64_t>((static_cast<std::uint64_t>(r.loc.file) << 32) | r.loc.line));
        }
        m_op[i] = r.op;
        m_lane[i] = r.lane < kWide8 ? static_cast<std::uint8_t>(r.lane) : kWide8;
        if (r.lane >= kWide8) {
            m_wideLane.set(i, r.lane);
        }
        const bool ls = r.lsStartPs >= 0;
        m_cause[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(r.cause) | (ls ? kHasLs : 0));
        if (ls) {
            const std::size_t row = m_lsIndex.size();
            m_lsIndex.push_back(static_cast<std::uint32_t>(i));
            m_lsLead.push_back(narrow32(row, r.mainStartPs - r.lsStartPs, m_wideLsLead));
            m_lsDuration.push_back(narrow32(row, r.lsEndPs - r.lsStartPs, m_wideLsDuration));
        }
    }
}

void TimelineData::freeze() {
    m_startBase.shrink_to_fit();
    m_startOff.shrink_to_fit();
    m_duration.shrink_to_fit();
    m_stall.shrink_to_fit();
    m_stallHigh.shrink_to_fit();
    m_waitBack.shrink_to_fit();
    m_loc.shrink_to_fit();
    m_lane.shrink_to_fit();
    m_op.shrink_to_fit();
    m_cause.shrink_to_fit();
    m_irId.shrink_to_fit();
    m_locs.shrink_to_fit();
    m_lsIndex.shrink_to_fit();
    m_lsLead.shrink_to_fit();
    m_lsDuration.shrink_to_fit();
    for (Wide* w : {&m_wideStart, &m_wideDuration, &m_wideStall, &m_wideWait, &m_wideLoc, &m_wideLane, &m_wideLsLead,
                    &m_wideLsDuration}) {
        w->entries.shrink_to_fit();
    }
}

std::size_t TimelineData::lsOf(std::size_t i) const {
    return static_cast<std::size_t>(
        std::lower_bound(m_lsIndex.begin(), m_lsIndex.end(), static_cast<std::uint32_t>(i)) - m_lsIndex.begin());
}

void TimelineData::setMainStartPs(std::size_t i, TimePs value) {
    const TimePs end = endPs(i);
    const bool ls = hasLoadStationary(i);
    const std::size_t k = ls ? lsOf(i) : 0;
    const TimePs lsStart = ls ? lsStartPs(k) : 0;
    putStart(i, value);
    putDuration(i, end - value);
    if (ls) {
        m_lsLead[k] = narrow32(k, value - lsStart, m_wideLsLead);
    }
}

void TimelineData::setEndPs(std::size_t i, TimePs value) {
    putDuration(i, value - mainStartPs(i));
}

void TimelineData::setWaitOn(std::size_t i, std::uint32_t value) {
    putWait(i, value);
}

void TimelineData::setStallPs(std::size_t i, TimePs value) {
    putStall(i, value);
}

void TimelineData::setLoc(std::size_t i, SourceLoc loc) {
    const std::uint16_t l = locIndex(loc);
    m_loc[i] = l;
    if (l == kWide16) {
        m_wideLoc.set(i, static_cast<std::int64_t>((static_cast<std::uint64_t>(loc.file) << 32) | loc.line));
    } else {
        m_wideLoc.erase(i);
    }
}

std::size_t TimelineData::memoryBytes() const {
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
    std::size_t total = bytes(m_startBase) + bytes(m_startOff) + bytes(m_duration) + bytes(m_stall) +
                        bytes(m_stallHigh) + bytes(m_waitBack) + bytes(m_loc) + bytes(m_lane) + bytes(m_op) +
                        bytes(m_cause) + bytes(m_irId) + bytes(m_locs) + bytes(m_lsIndex) + bytes(m_lsLead) +
                        bytes(m_lsDuration);
    for (const Wide* w : {&m_wideStart, &m_wideDuration, &m_wideStall, &m_wideWait, &m_wideLoc, &m_wideLane,
                          &m_wideLsLead, &m_wideLsDuration}) {
        total += w->bytes();
    }
    total += m_locMap.size() * (sizeof(std::pair<const std::uint64_t, std::uint16_t>) + 2 * sizeof(void*)) +
             m_locMap.bucket_count() * sizeof(void*); // about what the node-based map holds
    return total;
}

} // namespace kl::sim
