#include "listeners/SpillRecorder.h"

#include "ir/KernelIr.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kl::sim {

void SpillRecorder::onStart(const KernelIr& ir, const HardwareProfile&) {
    m_ir = &ir;
    m_record = {};
}

void SpillRecorder::onDmaTransfer(const DmaTransferEvent& e) {
    if (e.kind == DmaKind::Program) {
        return;
    }
    SpillStats& s = e.memory == Memory::Psum ? m_record.psum : m_record.sbuf;
    ++s.transfers;
    s.bytes += e.bytes;
    s.reloads += e.kind == DmaKind::Reload ? 1 : 0;
    m_record.transfers.push_back({e.start, e.end, e.bytes, e.buffer, e.index, e.lane, e.kind, e.memory});
}

std::string SpillRecorder::where(SourceLoc loc) const {
    if (loc.file == kNoIndex || loc.file >= m_ir->files.size()) {
        return loc.line > 0 ? fmt::format("line {}", loc.line) : std::string("an unknown line");
    }
    return fmt::format("{}:{}", m_ir->files[loc.file], loc.line);
}

void SpillRecorder::warn(Memory memory, std::vector<std::string>& out) const {
    struct Tile {
        std::uint64_t spills = 0;
        std::int64_t bytes = 0;
        std::uint32_t firstFor = kNoIndex; ///< the instruction whose room the first spill made
    };
    std::map<std::uint32_t, Tile> tiles; // by buffer id: deterministic order before the sort by weight
    for (const SpillTransfer& t : m_record.transfers) {
        if (t.memory != memory) {
            continue;
        }
        Tile& tile = tiles[t.buffer];
        tile.bytes += t.bytes;
        if (t.kind == DmaKind::Spill) {
            tile.spills += 1;
            tile.firstFor = std::min(tile.firstFor, t.forIndex);
        }
    }
    std::vector<std::pair<std::uint32_t, Tile>> heaviest(tiles.begin(), tiles.end());
    std::stable_sort(heaviest.begin(), heaviest.end(),
                     [](const auto& a, const auto& b) { return a.second.bytes > b.second.bytes; });
    const char* name = memory == Memory::Psum ? "PSUM" : "SBUF";
    const auto& buffers = m_ir->buffers();
    const auto& instrs = m_ir->instructions();
    for (std::size_t k = 0; k < heaviest.size() && k < kMaxWarnings; ++k) {
        const auto& [buffer, tile] = heaviest[k];
        const bool known = buffer < buffers.size();
        const std::string forLine =
            tile.firstFor < instrs.size()
                ? fmt::format("{} (instruction #{})", where(m_ir->innermostLoc(instrs[tile.firstFor])), tile.firstFor)
                : std::string("a later instruction");
        out.push_back(fmt::format("warning: {} spill: tile '{}' ({}) written to HBM and read back {} time(s), {} bytes "
                                  "of DMA traffic; spilled to make room for {}: the live tiles exceed {} capacity",
                                  name, known ? std::string(buffers[buffer].name) : std::string("?"),
                                  known ? where(buffers[buffer].decl) : std::string("an unknown line"), tile.spills,
                                  tile.bytes, forLine, name));
    }
    if (heaviest.size() > kMaxWarnings) {
        out.push_back(fmt::format("warning: {} spill: {} more tile(s) spilled", name, heaviest.size() - kMaxWarnings));
    }
}

void SpillRecorder::finish(SimResult& result) {
    for (SpillStats* s : {&m_record.sbuf, &m_record.psum}) {
        const Memory memory = s == &m_record.psum ? Memory::Psum : Memory::Sbuf;
        std::vector<std::uint32_t> ids;
        for (const SpillTransfer& t : m_record.transfers) {
            if (t.memory == memory && t.kind == DmaKind::Spill) {
                ids.push_back(t.buffer);
            }
        }
        std::sort(ids.begin(), ids.end());
        s->tiles = static_cast<std::uint32_t>(std::unique(ids.begin(), ids.end()) - ids.begin());
    }
    warn(Memory::Sbuf, result.diagnostics);
    warn(Memory::Psum, result.diagnostics);
    std::vector<std::uint32_t> spilled;
    for (const SpillTransfer& t : m_record.transfers) {
        spilled.push_back(t.buffer);
    }
    std::sort(spilled.begin(), spilled.end());
    spilled.erase(std::unique(spilled.begin(), spilled.end()), spilled.end());
    const auto& buffers = m_ir->buffers();
    for (const std::uint32_t b : spilled) {
        m_record.tiles.push_back(b < buffers.size() ? SpillTile{b, std::string(buffers[b].name), buffers[b].decl}
                                                    : SpillTile{b, "?", {}});
    }
    result.spills = std::move(m_record);
    m_record = {};
    m_ir = nullptr;
}

} // namespace kl::sim
