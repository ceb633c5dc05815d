#include "TestIr.h"

#include "engine/SimListener.h"
#include "ir/IrLoader.h"
#include "engine/Simulator.h"
#include "output/ResultJson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace kl::sim::test {

namespace {

/// A kernel-shaped random program: iterations that load tiles, multiply into PSUM, post-process on
/// the vector/scalar/gpsimd engines and store, with random shapes, partial regions and reuse of the
/// previous iteration's tiles. Tiles are small enough that the live set always fits, unless `spilling`: then
/// five long-lived 48 KiB tiles (more than trn1's 192 and trn2's 224 KiB of SBUF) are written first and each
/// iteration reads one of them: a spilled one comes back and pushes another out.
/// `readers`: right after the tile `r` is written, two to five instructions on different engines (VectorE,
/// ScalarE, GpSimdE, TensorE as a matmul's moving operand, a DMA store) each read part of it into a tile or HBM
/// buffer of their own; their indices go to `readerOf` (instruction index -> the writer they read).
TestIr randomIr(std::uint32_t seed, int iterations, bool spilling = false, bool readers = false,
                std::map<int, int>* readerOf = nullptr) {
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    TestIr t;
    const int in = t.buffer("in", "hbm", {1024, 2048});
    const int out = t.buffer("out", "hbm", {1024, 2048});
    const char* engines[] = {"vector", "scalar", "gpsimd"};
    const char* ops[] = {"tensor_copy", "activation", "tensor_scalar", "memset", "tensor_tensor"};
    int prev = -1;
    std::vector<int> kept;
    for (int w = 0; spilling && w < 5; ++w) {
        kept.push_back(t.buffer("kept", "sbuf", {128, 24576}));
        t.add("memset", "gpsimd", {t.whole(kept.back())}, {});
    }
    for (int it = 0; it < iterations; ++it) {
        const int free = 64 * pick(1, 8);
        const int parts = 16 * pick(1, 8);
        const int a = t.buffer("a", "sbuf", {128, free});
        const int b = t.buffer("b", "sbuf", {128, free});
        const std::int64_t row = pick(0, 1024 - parts);
        t.add("dma_copy", "dma", {t.part(a, 0, parts, 0, free)}, {t.hbm(in, row * 2048, parts, free, 2048)});
        t.add("dma_copy", "dma", {t.whole(b)}, {t.hbm(in, pick(0, 800) * 2048, 128, free, 2048)});
        const int acc = t.buffer("acc", "psum", {128, free}, "float32");
        const int k = pick(1, 3);
        for (int j = 0; j < k; ++j) {
            t.add("nc_matmul", "tensor", {t.whole(acc)}, {t.part(a, 0, 128, 0, 128 < free ? 128 : free), t.whole(b)},
                  {{"accumulate", j > 0}});
        }
        const int r = t.buffer("r", "sbuf", {128, free}, "float32");
        const int writer = t.add("tensor_copy", "vector", {t.whole(r)}, {t.whole(acc)});
        std::vector<int> order{0, 1, 2, 3, 4};
        const int readerCount = readers ? pick(2, 5) : 0;
        if (readers) {
            std::shuffle(order.begin(), order.end(), rng);
        }
        for (int k = 0; k < readerCount; ++k) {
            // Half the time the first reader reads the whole tile: a read that covers the write must not make the
            // tracker forget the write, or the readers after it would not wait for the writer.
            const bool whole = k == 0 && pick(0, 1) == 1;
            const int pc = whole ? 128 : 64;
            const int count = whole ? free : free / 2;
            const int p0 = whole ? 0 : pick(0, 1) * 64;
            const int lo = whole ? 0 : pick(0, free / 2);
            const TestIr::Json src = t.part(r, p0, pc, lo, count);
            int at = -1;
            switch (order[static_cast<std::size_t>(k)]) {
            case 0:
            case 1:
            case 2: {
                const int own = t.buffer("rd", "sbuf", {pc, count}, "float32");
                const char* engine = engines[order[static_cast<std::size_t>(k)]];
                at = t.add(k % 2 == 0 ? "tensor_copy" : "activation", engine, {t.whole(own)}, {src});
                break;
            }
            case 3: {
                const int own = t.buffer("rp", "psum", {128, count}, "float32");
                at = t.add("nc_matmul", "tensor", {t.whole(own)}, {t.part(a, 0, pc, 0, 128 < free ? 128 : free), src});
                break;
            }
            default: {
                const int own = t.buffer("ro", "hbm", {pc, count}, "float32");
                at = t.add("dma_copy", "dma", {t.whole(own)}, {src});
            }
            }
            if (readerOf != nullptr) {
                (*readerOf)[at] = writer;
            }
        }
        for (int j = pick(0, 4); j > 0; --j) {
            const std::string op = ops[pick(0, 4)];
            const int lo = pick(0, free / 2);
            std::vector<TestIr::Json> srcs;
            if (op != "memset")
                srcs.push_back(t.part(r, 0, 128, lo, free / 2));
            if (op == "tensor_tensor")
                srcs.push_back(prev >= 0 ? t.part(prev, 0, 64, 0, 64) : t.part(b, 0, 128, 0, free / 2));
            t.add(op, engines[pick(0, 2)], {t.part(r, pick(0, 1) * 64, 64, pick(0, free / 2), free / 2)}, srcs);
        }
        if (spilling) {
            t.add("tensor_tensor", "vector", {t.part(r, 0, 128, 0, free / 2)},
                  {t.part(r, 0, 128, 0, free / 2),
                   t.part(kept[static_cast<std::size_t>(pick(0, 4))], 0, 128, 0, free / 2)});
        }
        t.add("dma_copy", "dma", {t.hbm(out, pick(0, 896) * 2048, 128, free, 2048)}, {t.whole(r)});
        prev = r;
    }
    return t;
}

/// The elements an access touches, computed here from the IR's JSON (docs/kernel-ir.md: partitions
/// [part[0], part[0] + part[1]) of an on-chip buffer, HBM has none; flat free-dimension elements offset +
/// sum(i_k * stride_k), 0 <= i_k < count_k), not with the simulator's regionOf: disjoint sorted element
/// intervals, exact rather than a bounding box.
struct OracleRegion {
    std::int64_t partLo = 0;
    std::int64_t partHi = 1;
    std::vector<std::pair<std::int64_t, std::int64_t>> runs; ///< [first, last + 1), sorted, disjoint

    [[nodiscard]] bool overlaps(const OracleRegion& o) const {
        if (partHi <= o.partLo || o.partHi <= partLo) {
            return false;
        }
        for (std::size_t i = 0, j = 0; i < runs.size() && j < o.runs.size();) {
            if (runs[i].second <= o.runs[j].first) {
                ++i;
            } else if (o.runs[j].second <= runs[i].first) {
                ++j;
            } else {
                return true;
            }
        }
        return false;
    }
};

OracleRegion oracleRegion(const TestIr::Json& access) {
    OracleRegion r;
    if (access.contains("part")) {
        r.partLo = access["part"][0].get<std::int64_t>();
        r.partHi = r.partLo + access["part"][1].get<std::int64_t>();
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> dims; // stride, count; the innermost stride-1 dim is a run
    for (const auto& d : access["pattern"]) {
        dims.emplace_back(d[0].get<std::int64_t>(), d[1].get<std::int64_t>());
    }
    std::int64_t runLength = 1;
    if (!dims.empty() && dims.back().first == 1) {
        runLength = dims.back().second;
        dims.pop_back();
    }
    std::vector<std::int64_t> starts{access["offset"].get<std::int64_t>()};
    for (const auto& [stride, count] : dims) {
        std::vector<std::int64_t> next;
        for (const std::int64_t base : starts) {
            for (std::int64_t i = 0; i < count; ++i) {
                next.push_back(base + i * stride);
            }
        }
        starts = std::move(next);
    }
    std::sort(starts.begin(), starts.end());
    for (const std::int64_t first : starts) {
        if (!r.runs.empty() && first <= r.runs.back().second) {
            r.runs.back().second = std::max(r.runs.back().second, first + runLength);
        } else {
            r.runs.emplace_back(first, first + runLength);
        }
    }
    return r;
}

} // namespace

TEST(Invariants, RandomProgramsRespectEnginesDependenciesAndCapacity) {
    const HardwareProfile hw = profile("trn1");
    for (std::uint32_t seed = 1; seed <= 18; ++seed) {
        const bool spilling = seed > 12; // 13..18: the working set needs spills
        SCOPED_TRACE(testing::Message() << "seed " << seed);
        std::map<int, int> readerOf;
        const TestIr program = randomIr(seed, 40, spilling, true, &readerOf);
        const TestIr::Json doc = TestIr::Json::parse(program.str());
        const KernelIr ir = program.load();
        auto result = Simulator::run(ir, hw);
        ASSERT_TRUE(result.has_value());
        const SimResult& r = **result;
        const TimelineData& tl = r.timeline;
        ASSERT_EQ(tl.size(), ir.instructions().size());
        EXPECT_EQ(r.spills.transfers.empty(), !spilling);

        // 1. No lane runs two things at once (in-order per lane: each starts after the previous ends).
        std::vector<TimePs> laneEnd(r.laneCount, 0);
        std::size_t ls = 0;
        TimePs lsLaneEnd = 0;
        TimePs maxEnd = 0;
        for (std::size_t i = 0; i < tl.size(); ++i) {
            ASSERT_GE(tl.mainStartPs(i), laneEnd[tl.lane(i)]) << "seed " << seed << " instr " << i;
            ASSERT_GT(tl.endPs(i), tl.mainStartPs(i));
            laneEnd[tl.lane(i)] = tl.endPs(i);
            if (ls < tl.lsCount() && tl.lsIndex(ls) == i) {
                ASSERT_GE(tl.lsStartPs(ls), lsLaneEnd);
                ASSERT_LE(tl.lsEndPs(ls), tl.mainStartPs(i));
                lsLaneEnd = tl.lsEndPs(ls);
                ++ls;
            }
            maxEnd = std::max(maxEnd, tl.endPs(i));
        }
        EXPECT_EQ(r.summary.totalPs, maxEnd);

        // 1b. A DMA queue runs its transfers one after the other, spills and reloads among them.
        std::map<std::uint16_t, std::vector<std::pair<TimePs, TimePs>>> queue;
        for (std::size_t i = 0; i < tl.size(); ++i) {
            if (tl.lane(i) >= kComputeLanes) {
                queue[tl.lane(i)].emplace_back(tl.mainStartPs(i), tl.endPs(i));
            }
        }
        for (const SpillTransfer& sp : r.spills.transfers) {
            ASSERT_GE(sp.lane, kComputeLanes);
            ASSERT_LE(sp.endPs, maxEnd);
            queue[sp.lane].emplace_back(sp.startPs, sp.endPs);
        }
        for (auto& [lane, intervals] : queue) {
            std::sort(intervals.begin(), intervals.end());
            for (std::size_t k = 1; k < intervals.size(); ++k) {
                ASSERT_GE(intervals[k].first, intervals[k - 1].second) << "lane " << lane;
            }
        }

        // 2. No access starts before every earlier conflicting access has finished (brute force).
        std::vector<TimePs> lsStartOf(tl.size(), -1), lsEndOf(tl.size(), -1);
        for (std::size_t k = 0; k < tl.lsCount(); ++k) {
            lsStartOf[tl.lsIndex(k)] = tl.lsStartPs(k);
            lsEndOf[tl.lsIndex(k)] = tl.lsEndPs(k);
        }
        struct Access {
            std::int64_t buf;
            OracleRegion region;
            bool write;
            TimePs start;
            TimePs end;
        };
        std::vector<std::vector<Access>> accesses(tl.size());
        for (std::size_t i = 0; i < tl.size(); ++i) {
            const TestIr::Json& in = doc["instructions"][i];
            const bool mm = in["op"] == "nc_matmul";
            for (const TestIr::Json& ap : in["dst"]) {
                accesses[i].push_back(
                    {ap["buf"].get<std::int64_t>(), oracleRegion(ap), true, tl.mainStartPs(i), tl.endPs(i)});
            }
            std::size_t s = 0;
            for (const TestIr::Json& ap : in["src"]) {
                const bool stationary = mm && s++ == 0; // read by LoadStationary (docs/simulator.md, TensorE)
                accesses[i].push_back({ap["buf"].get<std::int64_t>(), oracleRegion(ap), false,
                                       stationary ? lsStartOf[i] : tl.mainStartPs(i),
                                       stationary ? lsEndOf[i] : tl.endPs(i)});
            }
        }
        for (std::size_t i = 0; i < tl.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                for (const Access& later : accesses[i]) {
                    for (const Access& earlier : accesses[j]) {
                        if (later.buf == earlier.buf && (later.write || earlier.write) &&
                            later.region.overlaps(earlier.region)) {
                            ASSERT_GE(later.start, earlier.end)
                                << "seed " << seed << ": #" << i << " before #" << j << " ended";
                        }
                    }
                }
            }
        }

        // 2b. Several readers on different engines of a freshly written tile: each waits for the writer (checked
        // above), and a reader held by a dependency is held by that writer, never by another reader (two reads
        // never conflict). The readers' own destinations are new, so the writer is their only conflict.
        ASSERT_GE(readerOf.size(), 80u);
        for (const auto& [reader, writer] : readerOf) {
            const auto i = static_cast<std::size_t>(reader);
            ASSERT_GE(tl.mainStartPs(i), tl.endPs(static_cast<std::size_t>(writer))) << "reader #" << reader;
            if (tl.cause(i) == WaitCause::Dependency) {
                EXPECT_EQ(tl.waitOn(i), static_cast<std::uint32_t>(writer))
                    << "seed " << seed << ": reader #" << reader << " waited on #" << tl.waitOn(i);
            }
        }

        // 3. Occupancy never exceeds capacity, and every tile is freed by the end.
        EXPECT_EQ(r.sbuf.overflowCount, 0u);
        EXPECT_LE(r.sbuf.peakPartitionBytes, r.sbuf.capacityPartitionBytes);
        EXPECT_LE(r.psum.peakPartitionBytes, r.psum.capacityPartitionBytes);
        for (const std::int64_t v : r.psum.partitionBytes)
            ASSERT_LE(v, r.psum.capacityPartitionBytes);
        for (const std::int64_t v : r.sbuf.partitionBytes)
            ASSERT_LE(v, r.sbuf.capacityPartitionBytes);
        EXPECT_EQ(r.sbuf.partitionBytes.back(), 0);
        EXPECT_EQ(r.psum.partitionBytes.back(), 0);
        EXPECT_EQ(r.dma.bytesInFlight.back(), 0);
    }
}

TEST(Invariants, SameInputGivesByteIdenticalJson) {
    const HardwareProfile hw = profile("trn2");
    const std::string irText = randomIr(99, 60).str();
    std::string first;
    for (int run = 0; run < 3; ++run) {
        // Reload each time: nothing may depend on addresses or on state left from a previous run.
        auto ir = IrLoader::loadString(irText);
        ASSERT_TRUE(ir.has_value());
        auto r = Simulator::run(*ir, hw);
        ASSERT_TRUE(r.has_value());
        const std::string json = ResultJson::write(**r);
        if (run == 0) {
            first = json;
            auto parsed = nlohmann::json::parse(json);
            for (const char* key :
                 {"total_time_ns", "instruction_count", "engine_active_pct", "dma_active_pct", "dma_exposed_ns",
                  "dma_bytes", "mfu_pct", "hbm_bandwidth_utilization_pct", "sbuf_peak_bytes", "psum_peak_bytes"}) {
                EXPECT_TRUE(parsed["summary"].contains(key)) << key;
            }
            for (const char* e : {"tensor", "vector", "scalar", "gpsimd"}) {
                EXPECT_TRUE(parsed["summary"]["engine_active_pct"].contains(e)) << e;
            }
            EXPECT_EQ(parsed["instructions"]["rows"].size(), ir->instructions().size());
        } else {
            EXPECT_EQ(json, first);
        }
    }
}

namespace {

/// Keeps every tile, transfer and bandwidth event, to rebuild the series the plain way: sort all of them
/// at the end (the recorders instead merge short per-lane lists at each watermark).
class EventLog : public SimListener {
public:
    void onMemory(const MemoryEvent& e) override { memory.push_back(e); }
    void onDmaTransfer(const DmaTransferEvent& e) override { transfers.push_back(e); }
    void onDmaBandwidth(const DmaBandwidthEvent& e) override { bandwidth.push_back(e); }
    void onWatermark(TimePs time) override {
        EXPECT_GE(time, lastWatermark);
        lastWatermark = time;
        watermarks.push_back({time, memory.size(), transfers.size()});
    }
    struct Mark {
        TimePs time;
        std::size_t memoryEvents;
        std::size_t transfers;
    };
    std::vector<MemoryEvent> memory;
    std::vector<DmaTransferEvent> transfers;
    std::vector<DmaBandwidthEvent> bandwidth;
    std::vector<Mark> watermarks;
    TimePs lastWatermark = 0;
};

/// The occupancy series by definition: the level after all steps at each distinct time (frees first
/// at one instant, for the peak).
OccupancySeries expectedOccupancy(const std::vector<MemoryEvent>& events, Memory memory) {
    std::map<TimePs, std::pair<std::vector<const MemoryEvent*>, std::vector<const MemoryEvent*>>> byTime;
    for (const MemoryEvent& e : events) {
        if (e.memory == memory) {
            (e.partitionBytes < 0 ? byTime[e.time].first : byTime[e.time].second).push_back(&e);
        }
    }
    OccupancySeries s;
    s.timePs = {0};
    s.bytes = {0};
    s.partitionBytes = {0};
    std::int64_t bytes = 0;
    std::int64_t pbytes = 0;
    for (const auto& [time, steps] : byTime) {
        for (const auto* list : {&steps.first, &steps.second}) {
            for (const MemoryEvent* e : *list) {
                bytes += e->bytes;
                pbytes += e->partitionBytes;
                s.peakBytes = std::max(s.peakBytes, bytes);
                s.peakPartitionBytes = std::max(s.peakPartitionBytes, pbytes);
            }
        }
        if (s.timePs.back() != time) {
            s.timePs.push_back(time);
            s.bytes.push_back(bytes);
            s.partitionBytes.push_back(pbytes);
        } else {
            s.bytes.back() = bytes;
            s.partitionBytes.back() = pbytes;
        }
    }
    return s;
}

} // namespace

TEST(Invariants, SeriesEqualAFullSortOfEveryEvent) {
    for (const char* hwName : {"trn1", "trn2"}) {
        const HardwareProfile hw = profile(hwName);
        for (std::uint32_t seed = 1; seed <= 12; ++seed) {
            const bool spilling = seed > 6; // 7..12: spill and reload events among the others
            SCOPED_TRACE(testing::Message() << hwName << " seed " << seed);
            const KernelIr ir = randomIr(seed, 300, spilling).load();
            EventLog log;
            SimListener* const extra[] = {&log};
            auto run = Simulator::run(ir, hw, extra);
            ASSERT_TRUE(run.has_value());
            const SimResult& r = **run;
            ASSERT_FALSE(log.watermarks.empty()); // the streaming path was taken
            ASSERT_EQ(r.spills.transfers.empty(), !spilling);
            // The watermark promise: nothing delivered after a watermark is earlier than it.
            for (const EventLog::Mark& m : log.watermarks) {
                for (std::size_t i = m.memoryEvents; i < log.memory.size(); ++i) {
                    ASSERT_GE(log.memory[i].time, m.time) << "tile event " << i;
                }
                for (std::size_t i = m.transfers; i < log.transfers.size(); ++i) {
                    ASSERT_GE(log.transfers[i].start, m.time) << "transfer " << i;
                }
            }
            for (const Memory memory : {Memory::Sbuf, Memory::Psum}) {
                const OccupancySeries want = expectedOccupancy(log.memory, memory);
                const OccupancySeries& got = memory == Memory::Sbuf ? r.sbuf : r.psum;
                EXPECT_EQ(got.timePs, want.timePs);
                EXPECT_EQ(got.bytes, want.bytes);
                EXPECT_EQ(got.partitionBytes, want.partitionBytes);
                EXPECT_EQ(got.peakBytes, want.peakBytes);
                EXPECT_EQ(got.peakPartitionBytes, want.peakPartitionBytes);
            }
            // DMA: bytes in flight and active transfers after all steps at each time; the rate of the
            // bandwidth piece starting there (pieces are gap-free, so the rate holds until the next).
            std::map<TimePs, std::pair<std::int64_t, std::int64_t>> delta;
            for (const DmaTransferEvent& t : log.transfers) {
                delta[t.start].first += t.bytes;
                delta[t.start].second += 1;
                delta[t.end].first -= t.bytes;
                delta[t.end].second -= 1;
            }
            std::map<TimePs, double> rateAt;
            for (const DmaBandwidthEvent& b : log.bandwidth) {
                rateAt[b.start] = b.bytesPerNs;
                delta[b.start];
                if (&b == &log.bandwidth.back()) {
                    rateAt[b.end] = 0.0;
                    delta[b.end];
                }
            }
            std::vector<TimePs> times{0};
            std::vector<std::int32_t> inFlight{0};
            std::vector<std::uint16_t> active{0};
            std::vector<double> rate{0.0};
            std::int64_t bytes = 0;
            std::int64_t count = 0;
            double current = 0;
            for (const auto& [time, d] : delta) {
                bytes += d.first;
                count += d.second;
                if (const auto it = rateAt.find(time); it != rateAt.end()) {
                    current = it->second;
                }
                if (times.back() != time) {
                    times.push_back(time);
                    inFlight.push_back(bytes);
                    active.push_back(static_cast<std::uint16_t>(count));
                    rate.push_back(current);
                } else {
                    inFlight.back() = bytes;
                    active.back() = static_cast<std::uint16_t>(count);
                    rate.back() = current;
                }
            }
            EXPECT_EQ(r.dma.timePs, times);
            EXPECT_EQ(r.dma.bytesInFlight, inFlight);
            EXPECT_EQ(r.dma.activeTransfers, active);
            EXPECT_EQ(r.dma.bytesPerNs, rate);
        }
    }
}

} // namespace kl::sim::test

namespace kl::sim::test {

// The same promise on a small program where the writer is slow (a 4 MiB load): the readers on VectorE, ScalarE,
// GpSimdE, TensorE and a DMA queue all start when the load ends, each held by the load and none by another
// reader (reads never conflict), whatever order they come in and whether the first reads the whole tile.
TEST(Invariants, ReadersOnDifferentEnginesOfAFreshTileWaitForTheWriterOnly) {
    for (const bool firstReadsWhole : {false, true}) {
        SCOPED_TRACE(firstReadsWhole ? "first reader reads the whole tile" : "readers read halves");
        TestIr t;
        const int h = t.buffer("h", "hbm", {128, 16384}, "float32");
        const int s = t.buffer("s", "sbuf", {128, 8192}, "float32");
        const int st = t.buffer("st", "sbuf", {128, 128});
        t.add("memset", "gpsimd", {t.whole(st)}, {});
        const int writer = t.add("dma_copy", "dma", {t.whole(s)}, {t.hbm(h, 0, 128, 8192, 16384)});
        std::vector<int> readers;
        const int v = t.buffer("v", "sbuf", {128, 8192}, "float32");
        readers.push_back(
            t.add("tensor_copy", "vector", {t.whole(v)}, {firstReadsWhole ? t.whole(s) : t.part(s, 0, 64, 0, 512)}));
        const int a = t.buffer("a", "sbuf", {64, 512}, "float32");
        readers.push_back(t.add("activation", "scalar", {t.whole(a)}, {t.part(s, 64, 64, 512, 512)}));
        const int g = t.buffer("g", "sbuf", {64, 512}, "float32");
        readers.push_back(t.add("tensor_copy", "gpsimd", {t.whole(g)}, {t.part(s, 0, 64, 100, 512)}));
        const int p = t.buffer("p", "psum", {128, 512}, "float32");
        readers.push_back(t.add("nc_matmul", "tensor", {t.whole(p)}, {t.whole(st), t.part(s, 0, 128, 0, 512)}));
        const int o = t.buffer("o", "hbm", {128, 512}, "float32");
        readers.push_back(t.add("dma_copy", "dma", {t.whole(o)}, {t.part(s, 0, 128, 1024, 512)}));
        const auto r = *Simulator::run(t.load(), profile("trn1"));
        const TimelineData& tl = r->timeline;
        const TimePs loaded = tl.endPs(static_cast<std::size_t>(writer));
        for (const int reader : readers) {
            const auto i = static_cast<std::size_t>(reader);
            EXPECT_GE(tl.mainStartPs(i), loaded) << "reader #" << reader << " started before the load ended";
            EXPECT_EQ(tl.cause(i), WaitCause::Dependency) << "reader #" << reader;
            EXPECT_EQ(tl.waitOn(i), static_cast<std::uint32_t>(writer)) << "reader #" << reader;
        }
    }
}

} // namespace kl::sim::test
