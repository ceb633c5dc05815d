// kl_bench_sim: simulation throughput. Synthesises a matmul-shaped kernel of >= 1 million instructions
// straight into a KernelIr (no JSON), simulates it on trn1 and prints instructions per second and the
// memory held per instruction (IR + timeline result, and the process's peak RSS). With REPEAT > 1 the
// simulation runs that many times and the median and best are printed (this machine is shared: single
// runs vary by tens of percent). The result digest (FNV-1a over every timeline field, series point and
// summary value) shows that a faster simulator still produces the same result.
//
//   kl_bench_sim [INSTRUCTIONS] [PROFILE.json] [REPEAT]
//
// KL_BENCH_SKIP_BARE=1 leaves out the run without listeners (for profiling Simulator::run alone).
#include "engine/Pipeline.h"
#include "engine/SimListener.h"
#include "engine/Simulator.h"
#include "hw/HardwareProfile.h"
#include "hw/ProfileLocator.h"
#include "ir/KernelIr.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace kl::sim;

AccessPattern onChip(KernelIr& ir, std::uint32_t buffer, std::int64_t freeElems, DType dtype) {
    const std::array<PatternDim, 1> dims{{{1, freeElems}}};
    AccessPattern ap;
    ap.buffer = buffer;
    ap.partStart = 0;
    ap.partCount = 128;
    ap.patternBegin = ir.addPattern(dims);
    ap.patternCount = 1;
    ap.dtype = dtype;
    return ap;
}

AccessPattern inHbm(KernelIr& ir, std::uint32_t buffer, std::int64_t offset, std::int64_t rowStride,
                    std::int64_t cols) {
    const std::array<PatternDim, 2> dims{{{rowStride, 128}, {1, cols}}};
    AccessPattern ap;
    ap.buffer = buffer;
    ap.offset = offset;
    ap.patternBegin = ir.addPattern(dims);
    ap.patternCount = 2;
    ap.dtype = DType::BFloat16;
    return ap;
}

std::uint32_t tile(KernelIr& ir, Memory memory, std::int64_t freeElems, DType dtype) {
    Buffer b;
    b.name = memory == Memory::Psum ? "acc" : "tile";
    b.memory = memory;
    b.shape = {128, freeElems};
    b.dtype = dtype;
    b.dtypeBytes = dtypeBytes(dtype);
    return ir.addBuffer(std::move(b));
}

/// Blocked matmul shape: per (m, n) output tile, K steps of {load lhsT tile, load rhs tile, matmul}, then
/// a PSUM->SBUF copy on VectorE, a ScalarE activation and a store.
KernelIr synthesise(std::size_t target) {
    KernelIr ir;
    ir.kernelName = "bench_matmul";
    ir.files = {"bench.py"};
    ir.reserve(target + 64);
    Buffer lhs{"lhsT", {8192, 4096}, Memory::Hbm, DType::BFloat16, BufferRole::Input, 2, {}};
    Buffer rhs{"rhs", {8192, 8192}, Memory::Hbm, DType::BFloat16, BufferRole::Input, 2, {}};
    Buffer out{"out", {4096, 8192}, Memory::Hbm, DType::BFloat16, BufferRole::Output, 2, {}};
    const std::uint32_t lhsB = ir.addBuffer(lhs);
    const std::uint32_t rhsB = ir.addBuffer(rhs);
    const std::uint32_t outB = ir.addBuffer(out);
    constexpr int kSteps = 64;
    auto add = [&](Op op, Engine engine, std::initializer_list<AccessPattern> dst,
                   std::initializer_list<AccessPattern> src, std::uint32_t line) {
        Instruction in;
        in.op = op;
        in.engine = engine;
        const std::array<SourceLoc, 1> loc{{{0, line}}};
        ir.addInstruction(in, std::span(dst.begin(), dst.size()), std::span(src.begin(), src.size()), loc);
    };
    for (std::size_t tileIndex = 0; ir.instructions().size() < target; ++tileIndex) {
        const std::int64_t m = static_cast<std::int64_t>(tileIndex % 32);
        const std::int64_t n = static_cast<std::int64_t>((tileIndex / 32) % 16);
        const std::uint32_t acc = tile(ir, Memory::Psum, 512, DType::Float32);
        for (int k = 0; k < kSteps; ++k) {
            const std::uint32_t a = tile(ir, Memory::Sbuf, 128, DType::BFloat16);
            const std::uint32_t b = tile(ir, Memory::Sbuf, 512, DType::BFloat16);
            add(Op::DmaCopy, Engine::Dma, {onChip(ir, a, 128, DType::BFloat16)},
                {inHbm(ir, lhsB, k * 128 * 4096 + m * 128, 4096, 128)}, 10);
            add(Op::DmaCopy, Engine::Dma, {onChip(ir, b, 512, DType::BFloat16)},
                {inHbm(ir, rhsB, k * 128 * 8192 + n * 512, 8192, 512)}, 11);
            add(Op::NcMatmul, Engine::Tensor, {onChip(ir, acc, 512, DType::Float32)},
                {onChip(ir, a, 128, DType::BFloat16), onChip(ir, b, 512, DType::BFloat16)}, 12);
        }
        const std::uint32_t res = tile(ir, Memory::Sbuf, 512, DType::BFloat16);
        add(Op::TensorCopy, Engine::Vector, {onChip(ir, res, 512, DType::BFloat16)},
            {onChip(ir, acc, 512, DType::Float32)}, 13);
        add(Op::Activation, Engine::Scalar, {onChip(ir, res, 512, DType::BFloat16)},
            {onChip(ir, res, 512, DType::BFloat16)}, 14);
        add(Op::DmaCopy, Engine::Dma, {inHbm(ir, outB, m * 128 * 8192 + n * 512, 8192, 512)},
            {onChip(ir, res, 512, DType::BFloat16)}, 15);
    }
    return ir;
}

/// CPU time of this process: on a shared machine wall time also counts other people's builds.
double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// CPU time of this thread (the phase split inside one run).
double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Splits the run into scheduling (Pipeline + listeners' per-event work) and the listeners' finish().
class PhaseClock : public SimListener {
public:
    void onStart(const KernelIr& ir, const HardwareProfile&) override {
        m_count = ir.instructions().size();
        m_start = threadCpuSeconds();
    }
    // Batches, not the default per-event loops: the clock should not add to what it measures.
    void onInstructions(std::span<const InstructionEvent> events) override {
        m_count -= std::min(m_count, events.size());
        if (m_count == 0)
            m_scheduled = threadCpuSeconds();
    }
    void onMemoryEvents(std::span<const MemoryEvent>) override {}
    void onDmaBandwidths(std::span<const DmaBandwidthEvent>) override {}
    void finish(SimResult&) override { m_finished = threadCpuSeconds(); }
    double scheduling() const { return m_scheduled - m_start; }
    double finishing() const { return m_finished - m_scheduled; }

private:
    std::size_t m_count = 0;
    double m_start = 0, m_scheduled = 0, m_finished = 0;
};

/// FNV-1a over the values a simulation produced, in a fixed order.
class Digest {
public:
    template <typename T> void add(T value) {
        std::uint64_t bits = 0;
        if constexpr (std::is_floating_point_v<T>) {
            bits = std::bit_cast<std::uint64_t>(static_cast<double>(value));
        } else {
            bits = static_cast<std::uint64_t>(value);
        }
        for (int b = 0; b < 8; ++b) {
            m_hash = (m_hash ^ ((bits >> (8 * b)) & 0xffu)) * 0x100000001b3ull;
        }
    }
    template <typename T> void addAll(const std::vector<T>& values) {
        add(values.size());
        for (const T& v : values) {
            add(v);
        }
    }
    [[nodiscard]] std::uint64_t value() const { return m_hash; }

private:
    std::uint64_t m_hash = 0xcbf29ce484222325ull;
};

std::uint64_t resultDigest(const SimResult& r) {
    Digest d;
    const TimelineData& t = r.timeline;
    d.add(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
        d.add(t.irId(i));
        d.add(t.mainStartPs(i));
        d.add(t.endPs(i));
        d.add(t.lane(i));
        d.add(static_cast<int>(t.op(i)));
        d.add(static_cast<int>(t.cause(i)));
        d.add(t.waitOn(i));
        d.add(t.stallPs(i));
        d.add(t.file(i));
        d.add(t.line(i));
    }
    for (std::size_t k = 0; k < t.lsCount(); ++k) {
        d.add(t.lsIndex(k));
        d.add(t.lsStartPs(k));
        d.add(t.lsEndPs(k));
    }
    for (const OccupancySeries* m : {&r.sbuf, &r.psum}) {
        d.addAll(m->timePs);
        d.addAll(m->bytes);
        d.addAll(m->partitionBytes);
        d.add(m->peakBytes);
        d.add(m->peakPartitionBytes);
        d.add(m->tiles);
        d.add(m->overflowCount);
    }
    d.addAll(r.dma.timePs);
    d.addAll(r.dma.bytesInFlight);
    d.addAll(r.dma.bytesPerNs);
    d.addAll(r.dma.activeTransfers);
    d.add(r.dma.transfers);
    d.add(r.dma.bytes);
    d.add(r.dma.hbmBytes);
    d.add(r.overlap.computeActivePs);
    d.add(r.overlap.dmaActivePs);
    d.add(r.overlap.overlapPs);
    d.add(r.overlap.dmaExposedPs);
    for (std::size_t c = 0; c < r.waits.count.size(); ++c) {
        d.add(r.waits.count[c]);
        d.add(r.waits.stallPs[c]);
    }
    for (const auto& b : r.waits.topBlockers) {
        d.add(b.index);
        d.add(b.waiters);
        d.add(b.stallPs);
    }
    const SimSummary& s = r.summary;
    d.add(s.totalPs);
    d.add(s.instructionCount);
    for (const EngineStats& e : s.engines) {
        d.add(e.instructions);
        d.add(e.busyPs);
        d.add(e.activePct);
    }
    d.add(s.flops);
    d.add(s.mfuPct);
    d.add(s.hbmBandwidthUtilizationPct);
    d.add(s.spillBytes);
    d.add(s.spillTransfers);
    for (const SpillTransfer& t : r.spills.transfers) {
        d.add(t.buffer);
        d.add(t.forIndex);
        d.add(t.startPs);
        d.add(t.endPs);
    }
    return d.value();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

long peakRssBytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss * 1024L;
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t target = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    std::string profilePath = argc > 2 ? argv[2] : std::string{};
    const int repeat = std::max(1, argc > 3 ? std::atoi(argv[3]) : 1);
    if (profilePath.empty()) {
        auto found = ProfileLocator::resolve("trn1", {KL_SOURCE_DIR, std::filesystem::current_path()});
        if (!found) {
            fmt::print(stderr, "{}\n", kl::formatError(found.error()));
            return 1;
        }
        profilePath = found->string();
    }
    auto hw = HardwareProfile::loadFile(profilePath);
    if (!hw) {
        fmt::print(stderr, "{}\n", kl::formatError(hw.error()));
        return 1;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const KernelIr ir = synthesise(target);
    const auto t1 = std::chrono::steady_clock::now();
    // The Pipeline alone (no listener), to show what the listeners cost on top.
    const bool skipBare = std::getenv("KL_BENCH_SKIP_BARE") != nullptr;
    const double bare0 = processCpuSeconds();
    if (!skipBare) {
        Pipeline bare(*hw);
        if (auto ok = bare.run(ir); !ok) {
            fmt::print(stderr, "{}\n", kl::formatError(ok.error()));
            return 1;
        }
    }
    const double bare1 = processCpuSeconds();
    // Each repetition simulates the same IR from scratch; the last result is kept for the figures below.
    std::vector<double> cpuTimes;
    std::vector<double> wallTimes;
    PhaseClock phases;
    std::shared_ptr<const SimResult> kept;
    for (int k = 0; k < repeat; ++k) {
        kept.reset();
        const auto w0 = std::chrono::steady_clock::now();
        const double cpu0 = processCpuSeconds();
        SimListener* const extra[] = {&phases};
        auto result = Simulator::run(ir, *hw, extra);
        const double cpu1 = processCpuSeconds();
        const auto w1 = std::chrono::steady_clock::now();
        if (!result) {
            fmt::print(stderr, "{}\n", kl::formatError(result.error()));
            return 1;
        }
        cpuTimes.push_back(cpu1 - cpu0);
        wallTimes.push_back(std::chrono::duration<double>(w1 - w0).count());
        kept = *result;
    }
    const SimResult& r = *kept;
    const double n = static_cast<double>(ir.instructions().size());
    const double simSeconds = median(wallTimes);
    const double cpuSeconds = median(cpuTimes);
    const double bestCpu = *std::min_element(cpuTimes.begin(), cpuTimes.end());
    const double irBytes = static_cast<double>(ir.memoryBytes()); // buffers included
    const double timelineBytes = static_cast<double>(r.timeline.memoryBytes());
    fmt::print("instructions          {}\n", ir.instructions().size());
    fmt::print("synthesis             {:.3f} s\n", std::chrono::duration<double>(t1 - t0).count());
    fmt::print("repetitions           {}\n", repeat);
    fmt::print("simulation            {:.3f} s (median wall)\n", simSeconds);
    fmt::print("simulation CPU time   {:.3f} s median, {:.3f} s best (last run: scheduling {:.3f} s, listeners' "
               "finish {:.3f} s)\n",
               cpuSeconds, bestCpu, phases.scheduling(), phases.finishing());
    fmt::print("throughput            {:.2f} M instructions/s (median wall), {:.2f} M instructions/s (median CPU "
               "time), {:.2f} M/s best\n",
               n / simSeconds / 1e6, n / cpuSeconds / 1e6, n / bestCpu / 1e6);
    fmt::print("pipeline alone        {:.3f} s CPU, {:.2f} M instructions/s (no listeners)\n", bare1 - bare0,
               n / (bare1 - bare0) / 1e6);
    fmt::print("IR bytes/instr        {:.1f}\n", irBytes / n);
    fmt::print("timeline bytes/instr  {:.1f}\n", timelineBytes / n);
    fmt::print("peak RSS bytes/instr  {:.1f}   (peak RSS {:.1f} MiB)\n", static_cast<double>(peakRssBytes()) / n,
               static_cast<double>(peakRssBytes()) / (1024.0 * 1024.0));
    fmt::print("series points         dma {} sbuf {} psum {}\n", r.dma.timePs.size(), r.sbuf.timePs.size(),
               r.psum.timePs.size());
    fmt::print("simulated time        {:.3f} ms, MFU {:.1f} %\n", static_cast<double>(r.summary.totalPs) / 1e9,
               r.summary.mfuPct);
    fmt::print("spills                {} transfers, {} bytes\n", r.summary.spillTransfers, r.summary.spillBytes);
    fmt::print("result digest         {:016x}\n", resultDigest(r));
    return 0;
}
