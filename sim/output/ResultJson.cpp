#include "output/ResultJson.h"

#include "ir/KernelIr.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <iterator>

namespace kl::sim {

namespace {

using Json = nlohmann::ordered_json;

double ns(TimePs ps) {
    return static_cast<double>(ps) / 1000.0;
}
/// Percentages and rates rounded to 1e-4 so that the text stays short and stable to read.
double round4(double v) {
    return std::round(v * 1e4) / 1e4;
}

Json summaryJson(const SimSummary& s) {
    Json j;
    j["total_time_ns"] = ns(s.totalPs);
    j["instruction_count"] = s.instructionCount;
    Json active;
    for (std::size_t i = 0; i < s.engines.size(); ++i) {
        active[std::string(engineName(static_cast<Engine>(i)))] = round4(s.engines[i].activePct);
    }
    j["engine_active_pct"] = active;
    j["dma_active_pct"] = round4(s.dmaActivePct);
    j["dma_exposed_ns"] = ns(s.dmaExposedPs);
    j["dma_bytes"] = s.dmaBytes;
    j["mfu_pct"] = round4(s.mfuPct);
    j["hbm_bandwidth_utilization_pct"] = round4(s.hbmBandwidthUtilizationPct);
    j["sbuf_peak_bytes"] = s.sbufPeakBytes;
    j["psum_peak_bytes"] = s.psumPeakBytes;
    j["flops"] = s.flops;
    j["spill_bytes"] = s.spillBytes;
    j["spill_transfers"] = s.spillTransfers;
    return j;
}

Json memoryJson(const OccupancySeries& m, const SpillStats& spill) {
    Json j;
    j["capacity_bytes"] = m.capacityBytes;
    j["capacity_partition_bytes"] = m.capacityPartitionBytes;
    j["peak_bytes"] = m.peakBytes;
    j["peak_partition_bytes"] = m.peakPartitionBytes;
    j["peak_pct"] = round4(m.peakPct());
    j["tiles"] = m.tiles;
    j["overflow_count"] = m.overflowCount;
    j["spill_bytes"] = spill.bytes;
    j["spill_transfers"] = spill.transfers;
    j["reloads"] = spill.reloads;
    j["spilled_tiles"] = spill.tiles;
    return j;
}

/// Spill and reload transfers, one row each in issue order; `lane` indexes `lanes`, `tile` the IR's buffers.
Json spillTable(const SpillRecord& spills) {
    Json rows = Json::array();
    for (const SpillTransfer& t : spills.transfers) {
        rows.push_back(Json::array({std::string(dmaKindName(t.kind)), t.memory == Memory::Psum ? "psum" : "sbuf",
                                    t.buffer, t.forIndex, t.lane, ns(t.startPs), ns(t.endPs), t.bytes}));
    }
    return Json{{"columns", {"kind", "memory", "tile", "for_index", "lane", "start_ns", "end_ns", "bytes"}},
                {"rows", rows}};
}

Json occupancySeries(const OccupancySeries& m) {
    Json rows = Json::array();
    for (std::size_t i = 0; i < m.timePs.size(); ++i) {
        rows.push_back(Json::array({ns(m.timePs[i]), m.bytes[i], m.partitionBytes[i]}));
    }
    return rows;
}

/// The per-instruction table is written straight to text: a JSON tree of a million rows would take
/// gigabytes. Numbers go through fmt's shortest round-trip form, like the rest of the document.
void appendInstructionTable(const SimResult& r, std::string& out) {
    const TimelineData& t = r.timeline;
    out += "\"instructions\": {\"columns\": [\"index\", \"id\", \"op\", \"lane\", \"start_ns\", \"end_ns\", \"wait\", "
           "\"wait_on\", \"stall_ns\", \"file\", \"line\"],\n \"rows\": [";
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string waitOn = t.waitOn(i) == kNoIndex ? "null" : fmt::format("{}", t.waitOn(i));
        const std::string file = t.file(i) == kNoIndex ? "null" : fmt::format("{}", t.file(i));
        fmt::format_to(std::back_inserter(out), "{}\n  [{}, {}, \"{}\", {}, {}, {}, \"{}\", {}, {}, {}, {}]",
                       i == 0 ? "" : ",", i, t.irId(i), opName(t.op(i)), t.lane(i), ns(t.startPs(i)), ns(t.endPs(i)),
                       waitCauseName(t.cause(i)), waitOn, ns(t.stallPs(i)), file, t.line(i));
    }
    out += "],\n \"load_stationary\": [";
    for (std::size_t k = 0; k < t.lsCount(); ++k) {
        fmt::format_to(std::back_inserter(out), "{}\n  [{}, {}, {}]", k == 0 ? "" : ",", t.lsIndex(k),
                       ns(t.lsStartPs(k)), ns(t.lsEndPs(k)));
    }
    out += "]}";
}

} // namespace

std::string ResultJson::write(const SimResult& r, const Options& options) {
    Json root;
    root["schema_version"] = kSchemaVersion;
    root["kernel"] = r.kernelName;
    root["hardware"] = r.hardwareName;
    root["files"] = r.files;
    root["summary"] = summaryJson(r.summary);
    if (r.lnc > 1) { // absent for one core: a single-core result stays byte-identical
        root["lnc"] = r.lnc;
        Json cores = Json::array();
        for (const SimSummary& c : r.cores) {
            cores.push_back(summaryJson(c));
        }
        root["cores"] = cores;
    }
    Json engines;
    for (std::size_t i = 0; i < r.summary.engines.size(); ++i) {
        const EngineStats& e = r.summary.engines[i];
        engines[std::string(engineName(static_cast<Engine>(i)))] =
            Json{{"instructions", e.instructions}, {"busy_ns", ns(e.busyPs)}, {"active_pct", round4(e.activePct)}};
    }
    root["engines"] = engines;
    root["dma"] = Json{{"transfers", r.dma.transfers},
                       {"bytes", r.dma.bytes},
                       {"hbm_bytes", r.dma.hbmBytes},
                       {"queues", r.dma.queues},
                       {"active_ns", ns(r.overlap.dmaActivePs)},
                       {"compute_active_ns", ns(r.overlap.computeActivePs)},
                       {"overlap_ns", ns(r.overlap.overlapPs)},
                       {"exposed_ns", ns(r.overlap.dmaExposedPs)}};
    root["memory"] = Json{{"sbuf", memoryJson(r.sbuf, r.spills.sbuf)}, {"psum", memoryJson(r.psum, r.spills.psum)}};
    Json waits;
    for (std::size_t c = 0; c < r.waits.count.size(); ++c) {
        waits[std::string(waitCauseName(static_cast<WaitCause>(c)))] =
            Json{{"count", r.waits.count[c]}, {"stall_ns", ns(r.waits.stallPs[c])}};
    }
    root["wait_causes"] = waits;
    Json blockers = Json::array();
    for (const auto& b : r.waits.topBlockers) {
        const bool known = b.index < r.timeline.size();
        blockers.push_back(Json{{"index", b.index},
                                {"id", known ? r.timeline.irId(b.index) : 0u},
                                {"op", known ? std::string(opName(r.timeline.op(b.index))) : std::string("?")},
                                {"waiters", b.waiters},
                                {"stall_ns", ns(b.stallPs)}});
    }
    root["top_blockers"] = blockers;
    root["diagnostics"] = r.diagnostics;
    Json lanes = Json::array();
    for (std::uint32_t l = 0; l < r.laneCount; ++l) {
        lanes.push_back(r.laneLabel(static_cast<std::uint16_t>(l)));
    }
    root["lanes"] = lanes;
    root["spill_transfers"] = spillTable(r.spills);
    if (options.series) {
        Json dma = Json::array();
        for (std::size_t i = 0; i < r.dma.timePs.size(); ++i) {
            dma.push_back(Json::array(
                {ns(r.dma.timePs[i]), r.dma.bytesInFlight[i], round4(r.dma.bytesPerNs[i]), r.dma.activeTransfers[i]}));
        }
        root["series"] = Json{{"sbuf", occupancySeries(r.sbuf)}, {"psum", occupancySeries(r.psum)}, {"dma", dma}};
    }
    std::string out = root.dump(options.indent);
    if (options.instructions) {
        out.pop_back(); // the closing brace; the table is appended as the last member
        while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) {
            out.pop_back();
        }
        out += ",\n ";
        appendInstructionTable(r, out);
        out += "\n}";
    }
    return out + "\n";
}

} // namespace kl::sim
