#pragma once

#include "engine/SimTypes.h"
#include "ir/IrTypes.h"
#include "ir/KernelIr.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kl::sim {

/// Per-instruction timeline as parallel arrays indexed by program order (Tracy style: one array per
/// field, no pointers), packed so that a 10-million-instruction run stays small. Read it through the
/// inline accessors; the encoding is private:
///
///  * main start (start on `lane`): a 64-bit base per block of 64 instructions (the main start of the
///    block's first instruction) plus a signed 32-bit offset per instruction (+-2.1 ms);
///  * end = main start + a 32-bit duration (4.29 ms); stall: 40 bits (a 32-bit low part and an 8-bit high
///    part, 1.1 s: a transfer held behind a long DMA queue can stall for many milliseconds);
///  * waitOn: a 16-bit distance back (index - waitOn; 0 = none);
///  * source location: a 16-bit index into a table of the distinct (file, line) pairs;
///  * lane, op, wait cause: a byte each (bit 7 of the cause byte marks a matmul with a LoadStationary row);
///  * irId: stored only if some id differs from its index (the front end numbers instructions in order);
///  * LoadStationary rows (matmuls): instruction index, lead (main start - LS start) and LS duration, 32
///    bits each; a matmul's startPs() is its LoadStationary start.
///
/// Exact, never saturating: a value that does not fit its field (a duration of 2^32 ps = 4.29 ms or more,
/// a stall of 2^40 ps or more, a wait 65535+ instructions back, ...) stores the all-ones sentinel and
/// keeps the exact value in a small sorted overflow table, so every accessor returns what was appended.
class TimelineData {
public:
    /// One instruction as appended (TimelineRecorder, synthetic runs, tests).
    struct Record {
        std::uint32_t irId = 0;
        TimePs mainStartPs = 0; ///< start on `lane` (for a matmul: the MultiplyMoving start)
        TimePs endPs = 0;       ///< for a matmul: end of its MultiplyMoving
        std::uint16_t lane = 0; ///< see laneName()
        Op op = Op::Unknown;
        SourceLoc loc; ///< innermost source frame: file index into SimResult::files (kNoIndex if none)
        WaitCause cause = WaitCause::None;
        std::uint32_t waitOn = kNoIndex; ///< program-order index waited on (cause == Dependency), else kNoIndex
        TimePs stallPs = 0;
        TimePs lsStartPs = -1; ///< LoadStationary part of a matmul, -1 if none
        TimePs lsEndPs = -1;
    };

    static constexpr std::size_t kBlock = 64; ///< instructions per start-time base
    /// Bytes per instruction: start offset 4 + duration 4 + stall 5 + waitOn 2 + location 2 + lane, op and
    /// cause 1 each, plus 8 / kBlock for the block's base.
    static constexpr std::size_t kBytesPerInstruction = 4 + 4 + 5 + 2 + 2 + 1 + 1 + 1;
    /// Bytes per matmul for its LoadStationary row: index 4 + lead 4 + duration 4.
    static constexpr std::size_t kBytesPerLoadStationary = 4 + 4 + 4;

    /// Exact reservation, so that a run of known length never grows (and never over-allocates) its arrays.
    void reserve(std::size_t instructions, std::size_t loadStationaries);
    void append(const Record& r);
    /// Appends consecutive instructions (each array grows once per call).
    void append(std::span<const Record> records);
    /// Releases spare capacity once all records are in (the TimelineRecorder freezes what it recorded).
    /// The accessors work before and after.
    void freeze();

    [[nodiscard]] std::size_t size() const { return m_op.size(); }
    [[nodiscard]] bool empty() const { return m_op.empty(); }

    [[nodiscard]] std::uint32_t irId(std::size_t i) const {
        return m_irId.empty() ? static_cast<std::uint32_t>(i) : m_irId[i];
    }
    /// Start on the instruction's lane (for a matmul: the MultiplyMoving start).
    [[nodiscard]] TimePs mainStartPs(std::size_t i) const {
        const std::int32_t off = m_startOff[i];
        return off != kWideOffset ? m_startBase[i / kBlock] + off : m_wideStart.get(i);
    }
    [[nodiscard]] TimePs durationPs(std::size_t i) const {
        const std::uint32_t d = m_duration[i];
        return d != kWide32 ? static_cast<TimePs>(d) : m_wideDuration.get(i);
    }
    /// End (for a matmul: end of its MultiplyMoving).
    [[nodiscard]] TimePs endPs(std::size_t i) const { return mainStartPs(i) + durationPs(i); }
    /// Start of the whole instruction: for a matmul the start of its LoadStationary, else mainStartPs().
    [[nodiscard]] TimePs startPs(std::size_t i) const {
        return hasLoadStationary(i) ? lsStartPs(lsOf(i)) : mainStartPs(i);
    }
    [[nodiscard]] std::uint16_t lane(std::size_t i) const {
        return m_lane[i] != kWide8 ? m_lane[i] : static_cast<std::uint16_t>(m_wideLane.get(i));
    }
    [[nodiscard]] Op op(std::size_t i) const { return m_op[i]; }
    [[nodiscard]] WaitCause cause(std::size_t i) const { return static_cast<WaitCause>(m_cause[i] & kCauseMask); }
    /// Program-order index waited on (cause == Dependency), else kNoIndex.
    [[nodiscard]] std::uint32_t waitOn(std::size_t i) const {
        const std::uint16_t d = m_waitBack[i];
        if (d == 0) {
            return kNoIndex;
        }
        return d != kWide16 ? static_cast<std::uint32_t>(i - d) : static_cast<std::uint32_t>(m_wideWait.get(i));
    }
    [[nodiscard]] TimePs stallPs(std::size_t i) const {
        const std::uint8_t high = m_stallHigh[i];
        return high != kWide8 ? static_cast<TimePs>((static_cast<std::uint64_t>(high) << 32) | m_stall[i])
                              : m_wideStall.get(i);
    }
    [[nodiscard]] SourceLoc loc(std::size_t i) const {
        const std::uint16_t l = m_loc[i];
        if (l != kWide16) {
            return m_locs[l];
        }
        const auto packed = static_cast<std::uint64_t>(m_wideLoc.get(i));
        return {static_cast<std::uint32_t>(packed >> 32), static_cast<std::uint32_t>(packed)};
    }
    /// Innermost source frame: index into SimResult::files, kNoIndex if none.
    [[nodiscard]] std::uint32_t file(std::size_t i) const { return loc(i).file; }
    /// 1-based line, 0 if none.
    [[nodiscard]] std::uint32_t line(std::size_t i) const { return loc(i).line; }

    /// LoadStationary rows of matmuls, in program order: k in [0, lsCount()).
    [[nodiscard]] std::size_t lsCount() const { return m_lsIndex.size(); }
    [[nodiscard]] std::uint32_t lsIndex(std::size_t k) const { return m_lsIndex[k]; }
    [[nodiscard]] TimePs lsStartPs(std::size_t k) const {
        const std::uint32_t lead = m_lsLead[k];
        return mainStartPs(m_lsIndex[k]) - (lead != kWide32 ? static_cast<TimePs>(lead) : m_wideLsLead.get(k));
    }
    [[nodiscard]] TimePs lsEndPs(std::size_t k) const {
        const std::uint32_t d = m_lsDuration[k];
        return lsStartPs(k) + (d != kWide32 ? static_cast<TimePs>(d) : m_wideLsDuration.get(k));
    }
    [[nodiscard]] bool hasLoadStationary(std::size_t i) const { return (m_cause[i] & kHasLs) != 0; }
    /// The LoadStationary row of instruction `i` (which must have one): a binary search.
    [[nodiscard]] std::size_t lsOf(std::size_t i) const;

    /// Edits of single fields of a frozen timeline (tests, synthetic runs). The other fields keep their
    /// values: setMainStartPs() keeps endPs(), setEndPs() keeps mainStartPs().
    void setMainStartPs(std::size_t i, TimePs value);
    void setEndPs(std::size_t i, TimePs value);
    void setWaitOn(std::size_t i, std::uint32_t value);
    void setStallPs(std::size_t i, TimePs value);
    void setCause(std::size_t i, WaitCause cause) {
        m_cause[i] = static_cast<std::uint8_t>((m_cause[i] & kHasLs) | static_cast<std::uint8_t>(cause));
    }
    void setLoc(std::size_t i, SourceLoc loc);

    [[nodiscard]] std::size_t memoryBytes() const;

private:
    static constexpr std::uint32_t kWide32 = 0xffffffffu;
    static constexpr std::int32_t kWideOffset = std::numeric_limits<std::int32_t>::min();
    static constexpr std::uint16_t kWide16 = 0xffffu;
    static constexpr std::uint8_t kWide8 = 0xffu;
    static constexpr std::uint8_t kHasLs = 0x80u;
    /// Stalls below this fit the 40-bit (32 + 8) field.
    static constexpr TimePs kStallLimit = static_cast<TimePs>(std::uint64_t{kWide8} << 32);
    static constexpr std::uint8_t kCauseMask = 0x7fu;

    /// Values that did not fit their narrow field: (index, exact value), sorted by index.
    struct Wide {
        std::vector<std::pair<std::uint32_t, std::int64_t>> entries;
        [[nodiscard]] std::int64_t get(std::size_t i) const;
        void set(std::size_t i, std::int64_t value); ///< inserts or replaces
        void erase(std::size_t i);
        [[nodiscard]] std::size_t bytes() const { return entries.capacity() * sizeof(entries[0]); }
    };

    void putStart(std::size_t i, TimePs value);
    void putDuration(std::size_t i, TimePs value);
    void putWait(std::size_t i, std::uint32_t value);
    void putStall(std::size_t i, TimePs value);
    std::uint16_t locIndex(SourceLoc loc);

    std::vector<TimePs> m_startBase;       ///< per block of kBlock instructions: its first main start
    std::vector<std::int32_t> m_startOff;  ///< main start - block base
    std::vector<std::uint32_t> m_duration; ///< end - main start
    std::vector<std::uint32_t> m_stall;    ///< low 32 bits of the stall
    std::vector<std::uint8_t> m_stallHigh; ///< bits 32..39 of the stall, kWide8 if it does not fit
    std::vector<std::uint16_t> m_waitBack; ///< index - waitOn, 0 if none
    std::vector<std::uint16_t> m_loc;      ///< index into m_locs
    std::vector<std::uint8_t> m_lane;
    std::vector<Op> m_op;
    std::vector<std::uint8_t> m_cause;    ///< WaitCause | kHasLs
    std::vector<std::uint32_t> m_irId;    ///< empty while every id equals its index
    std::vector<SourceLoc> m_locs;        ///< distinct locations, in order of first use
    std::vector<std::uint32_t> m_lsIndex; ///< LoadStationary rows: instruction index
    std::vector<std::uint32_t> m_lsLead;  ///< main start - LS start
    std::vector<std::uint32_t> m_lsDuration;
    std::array<std::pair<std::uint64_t, std::uint16_t>, 64> m_locCache{}; ///< (file << 32 | line) + 1 -> index
    std::unordered_map<std::uint64_t, std::uint16_t> m_locMap;            ///< all of m_locs, for cache misses
    Wide m_wideStart, m_wideDuration, m_wideStall, m_wideWait, m_wideLoc, m_wideLane, m_wideLsLead, m_wideLsDuration;
};

static_assert(TimelineData::kBytesPerInstruction == 20, "TimelineData: 20 bytes per instruction (+ 8 per 64 for the "
                                                        "block base), see the class comment");
static_assert(TimelineData::kBytesPerLoadStationary == 12, "TimelineData: 12 bytes per LoadStationary row");

/// Occupancy of one on-chip memory as a step function: the value holds from `timePs[i]` to `timePs[i+1]`.
/// The values are 32-bit (a point per tile allocation and free: a loop of a million tiles keeps a million points):
/// a run whose live bytes in one memory pass kMaxLiveBytes is refused (Simulator::run), never cut; the peaks are
/// 64-bit.
struct OccupancySeries {
    /// The most whole-tile bytes one memory's series holds live (2 GiB - 1; SBUF is 24-32 MiB per core).
    static constexpr std::int64_t kMaxLiveBytes = 0x7fffffff;
    std::vector<TimePs> timePs;
    std::vector<std::int32_t> bytes;          ///< whole-tile bytes live
    std::vector<std::int32_t> partitionBytes; ///< bytes reserved in each partition (at most `bytes`)
    std::int64_t capacityBytes = 0;
    std::int64_t capacityPartitionBytes = 0;
    std::int64_t peakBytes = 0;
    std::int64_t peakPartitionBytes = 0;
    std::uint32_t tiles = 0;
    std::uint32_t overflowCount = 0; ///< tiles that did not fit even after waiting (working set too big)
    /// With LNC 2, each core's own peak of whole-tile bytes (its own SBUF or PSUM); empty for one core.
    std::vector<std::int64_t> corePeakBytes;
    [[nodiscard]] double peakPct() const {
        return capacityPartitionBytes > 0
                   ? 100.0 * static_cast<double>(peakPartitionBytes) / static_cast<double>(capacityPartitionBytes)
                   : 0.0;
    }
};

/// DMA activity as a step function over time. Bytes in flight are 32-bit (a point per transfer start and end): a
/// run with more than kMaxBytesInFlight in flight at once is refused (Simulator::run), never cut.
struct DmaSeries {
    /// The most bytes the series holds in flight at once (2 GiB - 1; the 16 queues of a core move tiles of KiB to MiB).
    static constexpr std::int64_t kMaxBytesInFlight = 0x7fffffff;
    std::vector<TimePs> timePs;
    std::vector<std::int32_t> bytesInFlight;    ///< bytes of transfers queued-and-started but not finished
    std::vector<double> bytesPerNs;             ///< aggregate data rate (each transfer at its average rate)
    std::vector<std::uint16_t> activeTransfers; ///< at most the queues (one transfer runs per queue)
    std::uint64_t transfers = 0;
    std::int64_t bytes = 0;
    std::int64_t hbmBytes = 0;
    std::uint32_t queues = 0;
};

/// Compute/DMA overlap: time with any compute engine busy, any transfer active, both, and DMA alone.
struct OverlapStats {
    TimePs computeActivePs = 0;
    TimePs dmaActivePs = 0;
    TimePs overlapPs = 0;
    TimePs dmaExposedPs = 0; ///< DMA active while every compute engine idles
};

struct EngineStats {
    std::uint64_t instructions = 0;
    TimePs busyPs = 0;
    double activePct = 0;
};

struct WaitCauseStats {
    std::array<std::uint64_t, static_cast<std::size_t>(WaitCause::Count)> count{};
    std::array<TimePs, static_cast<std::size_t>(WaitCause::Count)> stallPs{};
    struct Blocker {
        std::uint32_t index = 0; ///< program-order index of the instruction others waited on
        std::uint64_t waiters = 0;
        TimePs stallPs = 0;
    };
    std::vector<Blocker> topBlockers; ///< by stall time, longest first (at most 10)
};

/// One spill (a tile written out to HBM because the live tiles did not fit) or reload (read back before its
/// next use). These are not IR instructions: they are kept apart from the timeline, on the DMA queue lane
/// they ran on.
struct SpillTransfer {
    TimePs startPs = 0; ///< queued (the fixed latency follows)
    TimePs endPs = 0;
    std::int64_t bytes = 0;
    std::uint32_t buffer = kNoIndex;   ///< the tile moved (index into the IR's buffers)
    std::uint32_t forIndex = kNoIndex; ///< the instruction that needed the room (spill) or the tile (reload)
    std::uint16_t lane = 0;            ///< a DMA queue lane (laneName)
    DmaKind kind = DmaKind::Spill;
    Memory memory = Memory::Sbuf;
};

/// Spill traffic of one on-chip memory: both directions count in `transfers` and `bytes`.
struct SpillStats {
    std::uint64_t transfers = 0; ///< spills + reloads
    std::int64_t bytes = 0;      ///< bytes of spills + reloads
    std::uint64_t reloads = 0;
    std::uint32_t tiles = 0; ///< distinct tiles spilled at least once
};

/// A tile that was spilled: its name and declaration, for the timeline's hover text.
struct SpillTile {
    std::uint32_t buffer = kNoIndex;
    std::string name;
    SourceLoc decl;
};

struct SpillRecord {
    std::vector<SpillTransfer> transfers; ///< in the order the simulator issued them
    SpillStats sbuf;
    SpillStats psum;
    std::vector<SpillTile> tiles; ///< every tile in `transfers`, by buffer ascending

    /// The tile `buffer`, or nullptr when it was never spilled.
    [[nodiscard]] const SpillTile* tile(std::uint32_t buffer) const {
        const auto it = std::lower_bound(tiles.begin(), tiles.end(), buffer,
                                         [](const SpillTile& t, std::uint32_t b) { return t.buffer < b; });
        return it != tiles.end() && it->buffer == buffer ? &*it : nullptr;
    }
};

/// Engines with a row in the summary: every Engine before Dma (DMA has its own figures), indexed by Engine.
inline constexpr std::size_t kSummaryEngines = static_cast<std::size_t>(Engine::Dma);
[[nodiscard]] constexpr bool hasSummaryRow(Engine e) {
    return static_cast<std::size_t>(e) < kSummaryEngines;
}

struct SimSummary {
    TimePs totalPs = 0;
    std::uint64_t instructionCount = 0;
    std::array<EngineStats, kSummaryEngines> engines{}; ///< indexed by Engine (see engine())
    double dmaActivePct = 0;
    TimePs dmaExposedPs = 0;
    std::int64_t dmaBytes = 0;
    double flops = 0;
    double mfuPct = 0;
    double hbmBandwidthUtilizationPct = 0;
    std::int64_t sbufPeakBytes = 0;
    std::int64_t psumPeakBytes = 0;
    std::int64_t spillBytes = 0;      ///< SBUF + PSUM spill and reload bytes
    std::uint64_t spillTransfers = 0; ///< SBUF + PSUM spill and reload transfers

    /// The figures of compute engine `e` (not Dma: hasSummaryRow).
    [[nodiscard]] const EngineStats& engine(Engine e) const { return engines[static_cast<std::size_t>(e)]; }
    [[nodiscard]] EngineStats& engine(Engine e) { return engines[static_cast<std::size_t>(e)]; }
};

/// Everything one simulation produced. Built once by the Simulator from its listeners, then shared
/// read-only as std::shared_ptr<const SimResult> (the GUI reads it on another thread).
struct SimResult {
    std::string kernelName;
    std::string hardwareName;
    std::vector<std::string> files;
    std::vector<std::string> diagnostics;
    std::uint32_t laneCount = 0;    ///< kComputeLanes + DMA queues (times lnc)
    std::uint32_t lnc = 1;          ///< physical cores of the logical NeuronCore the kernel ran on
    std::uint32_t lanesPerCore = 0; ///< lanes of one core when lnc > 1 (see localLane); 0 for one core
    /// Per physical core when lnc > 1 (empty otherwise): the same figures as `summary`, for that core's lanes.
    std::vector<SimSummary> cores;

    /// laneName with the core when lnc > 1 ("c1.dma.q3").
    [[nodiscard]] std::string laneLabel(std::uint16_t lane) const { return laneName(lane, lanesPerCore); }
    [[nodiscard]] bool isComputeLane(std::uint16_t lane) const { return sim::isComputeLane(lane, lanesPerCore); }
    SimSummary summary;
    TimelineData timeline;
    OccupancySeries sbuf;
    OccupancySeries psum;
    DmaSeries dma;
    OverlapStats overlap;
    WaitCauseStats waits;
    SpillRecord spills;
};

} // namespace kl::sim
