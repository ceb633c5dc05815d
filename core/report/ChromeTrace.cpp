#include "report/ChromeTrace.h"

#include "ir/KernelIr.h"
#include "report/TextEscape.h"

#include <fmt/format.h>

#include <cmath>

namespace kl::core::report {

namespace {

using sim::TimePs;

/// Microseconds with six decimals: exactly the integer picoseconds, no floating-point noise.
std::string us(TimePs ps) {
    const char* sign = ps < 0 ? "-" : "";
    const TimePs a = ps < 0 ? -ps : ps;
    return fmt::format("{}{}.{:06}", sign, a / 1'000'000, a % 1'000'000);
}

std::string ns(TimePs ps) {
    return fmt::format("{}.{:03}", ps / 1000, ps % 1000);
}

std::string jsonString(std::string_view raw) {
    const std::string s = sanitizeUtf8(raw);
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string number(double v) {
    return std::isfinite(v) ? fmt::format("{}", v) : "0";
}

/// Tracks are lanes; with LNC 2 core 1's lanes follow core 0's (sim::localLane).
int pidOf(std::uint16_t lane, std::uint32_t perCore) {
    return sim::isComputeLane(lane, perCore) ? ChromeTrace::kEnginePid : ChromeTrace::kDmaPid;
}

class Writer {
public:
    void event(const std::string& body) {
        m_out += m_first ? "\n" : ",\n";
        m_first = false;
        m_out += body;
    }
    std::string& out() { return m_out; }

private:
    std::string m_out;
    bool m_first = true;
};

void metadata(Writer& w, const sim::SimResult& r) {
    w.event(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":{}}}}})",
                        ChromeTrace::kEnginePid, jsonString("NeuronCore engines: " + r.kernelName)));
    w.event(fmt::format(R"({{"name":"process_sort_index","ph":"M","pid":{},"tid":0,"args":{{"sort_index":1}}}})",
                        ChromeTrace::kEnginePid));
    w.event(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":"DMA queues"}}}})",
                        ChromeTrace::kDmaPid));
    w.event(fmt::format(R"({{"name":"process_sort_index","ph":"M","pid":{},"tid":0,"args":{{"sort_index":2}}}})",
                        ChromeTrace::kDmaPid));
    w.event(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":"Memory and DMA"}}}})",
                        ChromeTrace::kCounterPid));
    w.event(fmt::format(R"({{"name":"process_sort_index","ph":"M","pid":{},"tid":0,"args":{{"sort_index":3}}}})",
                        ChromeTrace::kCounterPid));
    for (std::uint16_t lane = 0; lane < r.laneCount; ++lane) {
        w.event(fmt::format(R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":{}}}}})",
                            pidOf(lane, r.lanesPerCore), lane, jsonString(r.laneLabel(lane))));
        w.event(fmt::format(R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                            pidOf(lane, r.lanesPerCore), lane, lane));
    }
}

void instructions(Writer& w, const sim::SimResult& r) {
    const sim::TimelineData& tl = r.timeline;
    std::size_t ls = 0;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        const std::uint16_t lane = tl.lane(i);
        const std::string file = tl.file(i) < r.files.size() ? jsonString(r.files[tl.file(i)]) : "null";
        const std::string waitOn = tl.waitOn(i) == sim::kNoIndex ? "null" : fmt::format("{}", tl.waitOn(i));
        const std::string args =
            fmt::format(R"({{"index":{},"id":{},"file":{},"line":{},"wait":"{}","wait_on":{},"stall_ns":{}}})", i,
                        tl.irId(i), file, tl.line(i), sim::waitCauseName(tl.cause(i)), waitOn, ns(tl.stallPs(i)));
        const std::string_view op = sim::opName(tl.op(i));
        if (ls < tl.lsCount() && tl.lsIndex(ls) == i) {
            w.event(fmt::format(
                R"({{"name":"load_stationary","cat":"compute","ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{}}})",
                ChromeTrace::kEnginePid, lane - sim::localLane(lane, r.lanesPerCore), us(tl.lsStartPs(ls)),
                us(tl.lsEndPs(ls) - tl.lsStartPs(ls)), args));
            ++ls;
        }
        w.event(fmt::format(R"({{"name":"{}","cat":"{}","ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{}}})", op,
                            r.isComputeLane(lane) ? "compute" : "dma", pidOf(lane, r.lanesPerCore), lane,
                            us(tl.mainStartPs(i)), us(tl.endPs(i) - tl.mainStartPs(i)), args));
    }
}

/// Spill and reload transfers on the DMA queue they ran on, named "spill" / "reload" (category "spill") so that
/// Perfetto colours them apart from the kernel's own `dma_copy` slices.
void spills(Writer& w, const sim::SimResult& r) {
    for (const sim::SpillTransfer& t : r.spills.transfers) {
        const std::string args =
            fmt::format(R"({{"tile":{},"for_index":{},"memory":"{}","bytes":{},"wait":"spill"}})", t.buffer, t.forIndex,
                        t.memory == sim::Memory::Psum ? "psum" : "sbuf", t.bytes);
        w.event(fmt::format(R"({{"name":"{}","cat":"spill","ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"args":{}}})",
                            sim::dmaKindName(t.kind), pidOf(t.lane, r.lanesPerCore), t.lane, us(t.startPs),
                            us(t.endPs - t.startPs), args));
    }
}

void flows(Writer& w, const sim::SimResult& r) {
    const sim::TimelineData& tl = r.timeline;
    for (std::size_t i = 0; i < tl.size(); ++i) {
        const std::uint32_t j = tl.waitOn(i);
        if (tl.cause(i) != sim::WaitCause::Dependency || j == sim::kNoIndex || j >= tl.size()) {
            continue;
        }
        // The start binds to the slice it falls in: the last picosecond of the instruction waited on.
        const TimePs from = tl.endPs(j) > tl.mainStartPs(j) ? tl.endPs(j) - 1 : tl.mainStartPs(j);
        w.event(fmt::format(R"({{"name":"dependency","cat":"dependency","ph":"s","id":{},"pid":{},"tid":{},"ts":{}}})",
                            i, pidOf(tl.lane(j), r.lanesPerCore), tl.lane(j), us(from)));
        w.event(fmt::format(
            R"({{"name":"dependency","cat":"dependency","ph":"f","bp":"e","id":{},"pid":{},"tid":{},"ts":{}}})", i,
            pidOf(tl.lane(i), r.lanesPerCore), tl.lane(i), us(tl.mainStartPs(i))));
    }
}

void counters(Writer& w, const sim::SimResult& r) {
    auto occupancy = [&](const sim::OccupancySeries& s, std::string_view name) {
        for (std::size_t i = 0; i < s.timePs.size(); ++i) {
            w.event(fmt::format(R"({{"name":"{}","ph":"C","pid":{},"tid":0,"ts":{},"args":{{"partition_bytes":{}}}}})",
                                name, ChromeTrace::kCounterPid, us(s.timePs[i]),
                                i < s.partitionBytes.size() ? s.partitionBytes[i] : 0));
        }
    };
    occupancy(r.sbuf, "SBUF bytes per partition");
    occupancy(r.psum, "PSUM bytes per partition");
    const sim::DmaSeries& d = r.dma;
    for (std::size_t i = 0; i < d.timePs.size(); ++i) {
        w.event(fmt::format(
            R"({{"name":"DMA bandwidth","ph":"C","pid":{},"tid":0,"ts":{},"args":{{"bytes_per_ns":{}}}}})",
            ChromeTrace::kCounterPid, us(d.timePs[i]), number(i < d.bytesPerNs.size() ? d.bytesPerNs[i] : 0.0)));
        w.event(fmt::format(R"({{"name":"DMA in flight","ph":"C","pid":{},"tid":0,"ts":{},"args":{{"bytes":{}}}}})",
                            ChromeTrace::kCounterPid, us(d.timePs[i]),
                            i < d.bytesInFlight.size() ? d.bytesInFlight[i] : 0));
    }
}

} // namespace

std::string ChromeTrace::write(const sim::SimResult& result, const Options& options) {
    Writer w;
    w.out().reserve(result.timeline.size() * 260 + 4096);
    w.out() += "{\"traceEvents\":[";
    metadata(w, result);
    instructions(w, result);
    spills(w, result);
    if (options.flows) {
        flows(w, result);
    }
    if (options.counters) {
        counters(w, result);
    }
    w.out() += fmt::format(
        "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{{\"kernel\":{},\"hardware\":{},\"total_time_ns\":{}}}}}\n",
        jsonString(result.kernelName), jsonString(result.hardwareName), ns(result.summary.totalPs));
    return std::move(w.out());
}

} // namespace kl::core::report
