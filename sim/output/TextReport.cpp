#include "output/TextReport.h"

#include "ir/KernelIr.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kl::sim {

std::string formatDuration(TimePs ps) {
    const double ns = static_cast<double>(ps) / 1000.0;
    if (ns >= 1e6)
        return fmt::format("{:.3f} ms", ns / 1e6);
    if (ns >= 1e3)
        return fmt::format("{:.3f} us", ns / 1e3);
    return fmt::format("{:.3f} ns", ns);
}

std::string formatBytes(double bytes) {
    if (bytes >= 1024.0 * 1024.0 * 1024.0)
        return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    if (bytes >= 1024.0 * 1024.0)
        return fmt::format("{:.2f} MiB", bytes / (1024.0 * 1024.0));
    if (bytes >= 1024.0)
        return fmt::format("{:.2f} KiB", bytes / 1024.0);
    return fmt::format("{:.0f} B", bytes);
}

namespace {

void appendMemory(std::string& out, const char* name, const OccupancySeries& m, const SpillStats& spill) {
    out += fmt::format("{:<8} peak {:>11} ({} per partition, {:.1f} % of {}), {} tiles{}{}\n", name,
                       formatBytes(static_cast<double>(m.peakBytes)),
                       formatBytes(static_cast<double>(m.peakPartitionBytes)), m.peakPct(),
                       formatBytes(static_cast<double>(m.capacityPartitionBytes)), m.tiles,
                       m.overflowCount > 0 ? fmt::format(", {} OVERFLOWED", m.overflowCount) : std::string{},
                       spill.transfers > 0 ? fmt::format(", {} tile(s) SPILLED ({} transfers, {})", spill.tiles,
                                                         spill.transfers, formatBytes(static_cast<double>(spill.bytes)))
                                           : std::string{});
}

/// LNC 2: what each physical core did, against the run's time.
void appendCores(std::string& out, const SimResult& r) {
    out += fmt::format("\nCores (logical NeuronCore of {} physical cores; HBM bandwidth shared)\n", r.lnc);
    for (std::size_t c = 0; c < r.cores.size(); ++c) {
        const SimSummary& s = r.cores[c];
        out += fmt::format("  core {}  ends {:>12}  {:>9} instrs  DMA {:>11}  MFU {:.2f} %\n   ", c,
                           formatDuration(s.totalPs), s.instructionCount, formatBytes(static_cast<double>(s.dmaBytes)),
                           s.mfuPct);
        for (std::size_t i = 0; i < s.engines.size(); ++i) {
            out += fmt::format(" {} {:.2f} %", engineLabel(static_cast<Engine>(i)), s.engines[i].activePct);
        }
        out += fmt::format("\n    SBUF peak {}  PSUM peak {}\n", formatBytes(static_cast<double>(s.sbufPeakBytes)),
                           formatBytes(static_cast<double>(s.psumPeakBytes)));
    }
}

} // namespace

std::string TextReport::summary(const SimResult& r, std::string_view hardwareChoice) {
    const SimSummary& s = r.summary;
    std::string out =
        fmt::format("Kernel {} on {}\n", r.kernelName.empty() ? "(unnamed)" : r.kernelName, r.hardwareName);
    if (!hardwareChoice.empty()) {
        out += fmt::format("Hardware          {}\n", hardwareChoice);
    }
    out += fmt::format("Total time        {:>12}   ({} instructions)\n", formatDuration(s.totalPs), s.instructionCount);
    out += fmt::format("MFU               {:>10.2f} %   ({:.3g} FLOP)\n", s.mfuPct, s.flops);
    out += "\nEngines\n";
    for (std::size_t i = 0; i < s.engines.size(); ++i) {
        const EngineStats& e = s.engines[i];
        out += fmt::format("  {:<8} active {:>6.2f} %  busy {:>12}  {:>9} instrs\n",
                           engineLabel(static_cast<Engine>(i)), e.activePct, formatDuration(e.busyPs), e.instructions);
    }
    if (r.lnc > 1) {
        appendCores(out, r);
    }
    out += "\nDMA\n";
    out += fmt::format("  transfers {}  bytes {} (HBM {})  queues {}\n", r.dma.transfers,
                       formatBytes(static_cast<double>(r.dma.bytes)), formatBytes(static_cast<double>(r.dma.hbmBytes)),
                       r.dma.queues);
    out += fmt::format("  active {:.2f} %   exposed (DMA only) {}   HBM bandwidth used {:.2f} %\n", s.dmaActivePct,
                       formatDuration(s.dmaExposedPs), s.hbmBandwidthUtilizationPct);
    out += "\nMemory\n  ";
    appendMemory(out, "SBUF", r.sbuf, r.spills.sbuf);
    out += "  ";
    appendMemory(out, "PSUM", r.psum, r.spills.psum);
    out += "\nWait causes (what decided each instruction's start)\n";
    for (std::size_t c = 0; c < r.waits.count.size(); ++c) {
        if (r.waits.count[c] == 0)
            continue;
        out += fmt::format("  {:<14} {:>9} instrs   stalled {:>12}\n", waitCauseName(static_cast<WaitCause>(c)),
                           r.waits.count[c], formatDuration(r.waits.stallPs[c]));
    }
    if (!r.waits.topBlockers.empty()) {
        out += "  most waited-on:";
        for (std::size_t i = 0; i < std::min<std::size_t>(3, r.waits.topBlockers.size()); ++i) {
            const auto& b = r.waits.topBlockers[i];
            const bool known = b.index < r.timeline.size();
            out += fmt::format(" #{} {} ({} waiters, {})", b.index, known ? opName(r.timeline.op(b.index)) : "?",
                               b.waiters, formatDuration(b.stallPs));
        }
        out += "\n";
    }
    for (const std::string& d : r.diagnostics) {
        out += d + "\n";
    }
    return out;
}

std::string TextReport::timeline(const SimResult& r, std::size_t count, std::size_t width) {
    const TimelineData& t = r.timeline;
    const std::size_t n = std::min(count, t.size());
    if (n == 0 || width == 0) {
        return "Timeline: no instructions\n";
    }
    TimePs lo = t.startPs(0);
    TimePs hi = t.endPs(0);
    for (std::size_t i = 0; i < n; ++i) {
        lo = std::min(lo, t.startPs(i));
        hi = std::max(hi, t.endPs(i));
    }
    const TimePs span = std::max<TimePs>(hi - lo, 1);
    const auto column = [&](TimePs ps) {
        return static_cast<std::size_t>(static_cast<double>(ps - lo) / static_cast<double>(span) *
                                        static_cast<double>(width));
    };
    std::string out =
        fmt::format("Timeline view: first {} of {} instructions, {} to {}, 1 column = {}\n", n, t.size(),
                    formatDuration(lo), formatDuration(hi), formatDuration(span / static_cast<TimePs>(width)));
    out += fmt::format("{:>6} {:>6} {:<8} {:<18} {:>12} {:>12}  {:<22} {:>5}  |{}|\n", "[idx]", "id", "lane", "op",
                       "start_ns", "end_ns", "waited on", "line", std::string(width, '-'));
    for (std::size_t i = 0; i < n; ++i) {
        std::string bar(width, ' ');
        const std::size_t a = std::min(column(t.startPs(i)), width - 1);
        const std::size_t m = std::min(column(t.mainStartPs(i)), width - 1);
        const std::size_t b = std::min(std::max(column(t.endPs(i)), m + 1), width);
        // A matmul's LoadStationary ('l'), then the wait for its moving data ('.'), then the multiply.
        std::size_t lsEnd = a;
        if (t.hasLoadStationary(i)) {
            lsEnd = std::max(a + 1, column(t.lsEndPs(t.lsOf(i))));
        }
        for (std::size_t c = a; c < b; ++c)
            bar[c] = c >= m ? '=' : (c < lsEnd ? 'l' : '.');
        std::string wait{waitCauseName(t.cause(i))};
        if (t.cause(i) == WaitCause::Dependency)
            wait += fmt::format(" #{}", t.waitOn(i));
        out +=
            fmt::format("{:>6} {:>6} {:<8} {:<18} {:>12.3f} {:>12.3f}  {:<22} {:>5}  |{}|\n", fmt::format("[{}]", i),
                        t.irId(i), r.laneLabel(t.lane(i)), opName(t.op(i)), static_cast<double>(t.startPs(i)) / 1000.0,
                        static_cast<double>(t.endPs(i)) / 1000.0, wait, t.line(i), bar);
    }
    out += "('=' executing on its lane; matmuls: 'l' LoadStationary, '.' waiting for the moving tile or the array)\n";
    return out;
}

} // namespace kl::sim
