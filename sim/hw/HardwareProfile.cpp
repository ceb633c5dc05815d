#include "hw/HardwareProfile.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace kl::sim {

namespace {

using Json = nlohmann::json;

struct FieldSpec {
    const char* group;
    const char* key;
    double& (*field)(HardwareProfile&);
};

/// Every numeric field of a profile. A field is {"value": number, "unit": "...", "source": "..."}; a missing
/// `source` is an error, because an unsourced number is exactly what the profile exists to prevent.
const FieldSpec kFields[] = {
    {"clocks", "tensor", [](HardwareProfile& p) -> double& { return p.tensorGhz; }},
    {"clocks", "vector", [](HardwareProfile& p) -> double& { return p.vectorGhz; }},
    {"clocks", "scalar", [](HardwareProfile& p) -> double& { return p.scalarGhz; }},
    {"clocks", "gpsimd", [](HardwareProfile& p) -> double& { return p.gpsimdGhz; }},
    {"costs", "min_ii", [](HardwareProfile& p) -> double& { return p.costs.minIi; }},
    {"costs", "access_overhead", [](HardwareProfile& p) -> double& { return p.costs.accessOverhead; }},
    {"costs", "static_overhead", [](HardwareProfile& p) -> double& { return p.costs.staticOverhead; }},
    {"costs", "matmul_min_interval", [](HardwareProfile& p) -> double& { return p.costs.matmulMinInterval; }},
    {"costs", "fp32_matmul_factor", [](HardwareProfile& p) -> double& { return p.costs.fp32MatmulFactor; }},
    {"costs", "load_stationary_speedup", [](HardwareProfile& p) -> double& { return p.costs.loadStationarySpeedup; }},
    {"costs", "gpsimd_startup", [](HardwareProfile& p) -> double& { return p.costs.gpsimdStartup; }},
    {"costs", "bn_aggr_factor", [](HardwareProfile& p) -> double& { return p.costs.bnAggrFactor; }},
    {"costs", "reciprocal_factor", [](HardwareProfile& p) -> double& { return p.costs.reciprocalFactor; }},
    {"costs", "tensor_tensor_slow_factor",
     [](HardwareProfile& p) -> double& { return p.costs.tensorTensorSlowFactor; }},
    {"costs", "tensor_reduce_fast_divisor", [](HardwareProfile& p) -> double& { return p.costs.reduceFastDivisor; }},
    {"costs", "pe_rows", [](HardwareProfile& p) -> double& { return p.costs.peRows; }},
    {"costs", "pe_cols", [](HardwareProfile& p) -> double& { return p.costs.peCols; }},
    {"sbuf", "partitions", [](HardwareProfile& p) -> double& { return p.sbuf.partitions; }},
    {"sbuf", "partition_bytes", [](HardwareProfile& p) -> double& { return p.sbuf.partitionBytes; }},
    {"psum", "partitions", [](HardwareProfile& p) -> double& { return p.psum.partitions; }},
    {"psum", "partition_bytes", [](HardwareProfile& p) -> double& { return p.psum.partitionBytes; }},
    {"psum", "bank_bytes", [](HardwareProfile& p) -> double& { return p.psum.bankBytes; }},
    {"dma", "engines", [](HardwareProfile& p) -> double& { return p.dma.engines; }},
    {"dma", "queues", [](HardwareProfile& p) -> double& { return p.dma.queues; }},
    {"dma", "partitions_per_engine", [](HardwareProfile& p) -> double& { return p.dma.partitionsPerEngine; }},
    {"dma", "engine_bandwidth", [](HardwareProfile& p) -> double& { return p.dma.engineBytesPerNs; }},
    {"dma", "core_bandwidth", [](HardwareProfile& p) -> double& { return p.dma.coreBytesPerNs; }},
    {"dma", "fixed_latency", [](HardwareProfile& p) -> double& { return p.dma.fixedLatencyNs; }},
    {"hbm", "bandwidth_per_core", [](HardwareProfile& p) -> double& { return p.hbmBytesPerNs; }},
};

/// The value of a {"value", "unit", "source"} field. A source that starts with kAssumptionPrefix is recorded in
/// `assumptions` and must still say what the value is assumed from.
const Json& sourcedField(const Json& root, const char* group, const char* key, std::vector<std::string>& assumptions) {
    const Json& field = root.at(group).at(key);
    if (!field.is_object() || !field.contains("value")) {
        throw std::runtime_error(fmt::format("{}.{} must be an object with \"value\" and \"source\"", group, key));
    }
    if (!field.contains("source") || !field["source"].is_string() || field["source"].get<std::string>().empty()) {
        throw std::runtime_error(
            fmt::format("{}.{} has no \"source\": every profile number must name where it comes from", group, key));
    }
    const std::string source = field["source"].get<std::string>();
    if (source.starts_with(kAssumptionPrefix)) {
        if (source.find_first_not_of(' ', kAssumptionPrefix.size()) == std::string::npos) {
            throw std::runtime_error(fmt::format("{}.{}: an \"{}\" source must say what the value is assumed from",
                                                 group, key, kAssumptionPrefix));
        }
        assumptions.push_back(fmt::format("{}.{}", group, key));
    }
    return field["value"];
}

HardwareProfile parseProfile(const Json& root) {
    HardwareProfile p;
    p.name = root.at("name").get<std::string>();
    p.description = root.value("description", std::string{});
    for (const FieldSpec& f : kFields) {
        const double v = sourcedField(root, f.group, f.key, p.assumptions).get<double>();
        if (!std::isfinite(v) || v < 0) {
            throw std::runtime_error(fmt::format("{}.{} must be a non-negative number", f.group, f.key));
        }
        f.field(p) = v;
    }
    for (const Json& point : sourcedField(root, "dma", "efficiency_by_bytes_per_partition", p.assumptions)) {
        p.dma.efficiency.push_back({point.at(0).get<double>(), point.at(1).get<double>()});
    }
    for (std::size_t i = 0; i < p.dma.efficiency.size(); ++i) {
        const auto& e = p.dma.efficiency[i];
        if (e.efficiency <= 0 || e.efficiency > 1 || e.bytesPerPartition <= 0 ||
            (i > 0 && e.bytesPerPartition <= p.dma.efficiency[i - 1].bytesPerPartition)) {
            throw std::runtime_error("dma.efficiency_by_bytes_per_partition must be [bytes, efficiency] pairs, bytes "
                                     "ascending, 0 < efficiency <= 1");
        }
    }
    if (p.dma.efficiency.empty()) {
        p.dma.efficiency.push_back({1, 1});
    }
    if (p.tensorGhz <= 0 || p.vectorGhz <= 0 || p.scalarGhz <= 0 || p.gpsimdGhz <= 0 || p.dma.queues < 1 ||
        p.dma.coreBytesPerNs <= 0 || p.dma.engineBytesPerNs <= 0 || p.hbmBytesPerNs <= 0) {
        throw std::runtime_error("clocks, DMA queues and bandwidths must be positive");
    }
    return p;
}

} // namespace

double HardwareProfile::dmaEfficiency(double bytesPerPartition) const {
    const auto& t = dma.efficiency;
    if (t.empty())
        return 1.0;
    if (bytesPerPartition <= t.front().bytesPerPartition)
        return t.front().efficiency;
    if (bytesPerPartition >= t.back().bytesPerPartition)
        return t.back().efficiency;
    for (std::size_t i = 1; i < t.size(); ++i) {
        if (bytesPerPartition <= t[i].bytesPerPartition) {
            const double x0 = std::log2(t[i - 1].bytesPerPartition);
            const double x1 = std::log2(t[i].bytesPerPartition);
            const double f = (std::log2(bytesPerPartition) - x0) / (x1 - x0);
            return t[i - 1].efficiency + f * (t[i].efficiency - t[i - 1].efficiency);
        }
    }
    return t.back().efficiency;
}

Expected<HardwareProfile> HardwareProfile::loadString(std::string_view json, std::string_view origin) {
    try {
        const Json root = Json::parse(json.begin(), json.end());
        if (const int version = root.value("profile_version", 0); version != 1) {
            return makeError(
                ErrorCode::Unsupported,
                fmt::format("hardware profile version {} is not supported: this build reads version 1", version),
                std::string(origin));
        }
        return parseProfile(root);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("bad hardware profile: {}", e.what()), std::string(origin), 0,
                         "compare with resources/hw/trn1.json");
    }
}

Expected<HardwareProfile> HardwareProfile::loadFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot open hardware profile", path.string());
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return loadString(buffer.str(), path.string());
}

} // namespace kl::sim
