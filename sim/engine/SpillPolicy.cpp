#include "engine/SpillPolicy.h"

#include <algorithm>
#include <cassert>

namespace kl::sim {

namespace {

std::size_t memorySlot(Memory memory) {
    assert(memory != Memory::Hbm);
    return memory == Memory::Psum ? 1 : 0;
}

} // namespace

void SpillPolicy::reset(std::size_t bufferCount) {
    for (auto& list : m_resident) {
        list.clear();
    }
    m_slot.clear();
    m_bufferCount = bufferCount;
    m_tracking = false;
    m_indexed = false;
    m_useBegin.clear();
    m_uses.clear();
}

void SpillPolicy::track(std::span<const std::pair<std::uint32_t, Memory>> residentNow) {
    m_slot.assign(m_bufferCount, kNoIndex);
    m_tracking = true;
    for (const auto& [buffer, memory] : residentNow) {
        resident(buffer, memory);
    }
}

void SpillPolicy::resident(std::uint32_t buffer, Memory memory) {
    auto& list = m_resident[memorySlot(memory)];
    m_slot[buffer] = static_cast<std::uint32_t>(list.size());
    list.push_back(buffer);
}

void SpillPolicy::evicted(std::uint32_t buffer, Memory memory) {
    auto& list = m_resident[memorySlot(memory)];
    const std::uint32_t slot = m_slot[buffer];
    if (slot == kNoIndex) {
        return;
    }
    // Swap-remove: the order of the set does not matter, victim() breaks ties by buffer id.
    list[slot] = list.back();
    m_slot[list[slot]] = slot;
    list.pop_back();
    m_slot[buffer] = kNoIndex;
}

void SpillPolicy::buildNextUse(const KernelIr& ir) {
    // Counting sort of (buffer, instruction) pairs: two passes over the operands, instructions ascending.
    const auto& facts = ir.bufferFacts();
    m_useBegin.assign(facts.size() + 1, 0);
    const auto& instrs = ir.instructions();
    const auto forEachUse = [&](auto visit) {
        for (std::uint32_t i = 0; i < instrs.size(); ++i) {
            const Instruction& in = instrs[i];
            for (const auto ops : {ir.dsts(in), ir.srcs(in)}) {
                for (const AccessPattern& ap : ops) {
                    if (ap.buffer < facts.size() && facts[ap.buffer].memory != Memory::Hbm) {
                        visit(ap.buffer, i);
                    }
                }
            }
        }
    };
    forEachUse([&](std::uint32_t b, std::uint32_t) { ++m_useBegin[b + 1]; });
    for (std::size_t b = 0; b < facts.size(); ++b) {
        m_useBegin[b + 1] += m_useBegin[b];
    }
    m_uses.assign(m_useBegin.back(), 0);
    std::vector<std::uint32_t> fill(m_useBegin.begin(), m_useBegin.end() - 1);
    forEachUse([&](std::uint32_t b, std::uint32_t i) { m_uses[fill[b]++] = i; });
    m_indexed = true;
}

std::uint32_t SpillPolicy::nextUse(std::uint32_t buffer, std::uint32_t index) const {
    const auto begin = m_uses.begin() + m_useBegin[buffer];
    const auto end = m_uses.begin() + m_useBegin[buffer + 1];
    const auto it = std::upper_bound(begin, end, index);
    return it == end ? kNoIndex : *it;
}

std::uint32_t SpillPolicy::victim(const KernelIr& ir, const Instruction& in, std::uint32_t index, Memory memory) {
    if (!m_indexed) {
        buildNextUse(ir);
    }
    const auto usedHere = [&](std::uint32_t b) {
        for (const auto ops : {ir.dsts(in), ir.srcs(in)}) {
            for (const AccessPattern& ap : ops) {
                if (ap.buffer == b) {
                    return true;
                }
            }
        }
        return false;
    };
    std::uint32_t best = kNoIndex;
    std::uint32_t bestNext = 0;
    for (const std::uint32_t b : m_resident[memorySlot(memory)]) {
        if (usedHere(b)) {
            continue;
        }
        // kNoIndex (no later use: cannot happen for a resident tile, it is freed at its last use) sorts last.
        const std::uint32_t next = nextUse(b, index);
        if (best == kNoIndex || next > bestNext || (next == bestNext && b < best)) {
            best = b;
            bestNext = next;
        }
    }
    return best;
}

} // namespace kl::sim
