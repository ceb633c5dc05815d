#include "hw/ProfileFields.h"

#include <fmt/format.h>

#include <cmath>

namespace kl::sim {

namespace {

using P = HardwareProfile;

constexpr double kMaxCycles = 1e6;   ///< a fixed per-instruction cost in cycles
constexpr double kMaxFactor = 1000;  ///< a cost multiplier
constexpr double kMinDivisor = 0.01; ///< a cost divisor (speed-up)
constexpr double kMinBandwidth = 0.01;
constexpr double kMaxBandwidth = 1e6; ///< bytes/ns
constexpr double kMaxArray = 4096;    ///< partitions, PE rows/columns

const ProfileField kFields[] = {
    {"clocks", "tensor", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.tensorGhz; }},
    {"clocks", "vector", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.vectorGhz; }},
    {"clocks", "scalar", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.scalarGhz; }},
    {"clocks", "gpsimd", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.gpsimdGhz; }},
    {"costs", "min_ii", "cycles", 0, kMaxCycles, false, [](P& p) -> double& { return p.costs.minIi; }},
    {"costs", "access_overhead", "cycles", 0, kMaxCycles, false,
     [](P& p) -> double& { return p.costs.accessOverhead; }},
    {"costs", "static_overhead", "cycles", 0, kMaxCycles, false,
     [](P& p) -> double& { return p.costs.staticOverhead; }},
    {"costs", "matmul_min_interval", "cycles", 0, kMaxCycles, false,
     [](P& p) -> double& { return p.costs.matmulMinInterval; }},
    {"costs", "fp32_matmul_factor", "x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.fp32MatmulFactor; }},
    {"costs", "load_stationary_speedup", "x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.loadStationarySpeedup; }},
    {"costs", "gpsimd_startup", "cycles", 0, kMaxCycles, false, [](P& p) -> double& { return p.costs.gpsimdStartup; }},
    {"costs", "bn_aggr_factor", "x N", 0, kMaxFactor, false, [](P& p) -> double& { return p.costs.bnAggrFactor; }},
    {"costs", "reciprocal_factor", "x N", 0, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.reciprocalFactor; }},
    {"costs", "tensor_tensor_slow_factor", "x N", 0, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.tensorTensorSlowFactor; }},
    {"costs", "tensor_reduce_fast_divisor", "N / x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.reduceFastDivisor; }},
    {"costs", "vector_fast_copy_divisor", "N / x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.vectorFastCopyDivisor; }},
    {"costs", "vector_fast_divisor", "N / x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.vectorFastDivisor; }},
    {"costs", "scalar_fast_divisor", "N / x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.scalarFastDivisor; }},
    {"costs", "memset_zero_divisor", "N / x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.memsetZeroDivisor; }},
    {"costs", "transpose_fp32_factor", "x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.transposeFp32Factor; }},
    {"costs", "mx_matmul_speedup", "x", kMinDivisor, kMaxFactor, false,
     [](P& p) -> double& { return p.costs.mxMatmulSpeedup; }},
    {"costs", "pe_rows", "rows", 1, kMaxArray, true, [](P& p) -> double& { return p.costs.peRows; }},
    {"costs", "pe_cols", "columns", 1, kMaxArray, true, [](P& p) -> double& { return p.costs.peCols; }},
    {"sbuf", "partitions", "partitions", 1, kMaxArray, true, [](P& p) -> double& { return p.sbuf.partitions; }},
    {"sbuf", "partition_bytes", "bytes", 1, kMaxPartitionBytes, true,
     [](P& p) -> double& { return p.sbuf.partitionBytes; }},
    {"psum", "partitions", "partitions", 1, kMaxArray, true, [](P& p) -> double& { return p.psum.partitions; }},
    {"psum", "partition_bytes", "bytes", 1, kMaxPartitionBytes, true,
     [](P& p) -> double& { return p.psum.partitionBytes; }},
    {"psum", "bank_bytes", "bytes", 0, kMaxPartitionBytes, true, [](P& p) -> double& { return p.psum.bankBytes; }},
    {"dma", "engines", "engines", 1, 64, true, [](P& p) -> double& { return p.dma.engines; }},
    {"dma", "queues", "queues", 1, kMaxDmaQueues, true, [](P& p) -> double& { return p.dma.queues; }},
    {"dma", "partitions_per_engine", "partitions", 1, kMaxArray, true,
     [](P& p) -> double& { return p.dma.partitionsPerEngine; }},
    {"dma", "engine_bandwidth", "bytes/ns", kMinBandwidth, kMaxBandwidth, false,
     [](P& p) -> double& { return p.dma.engineBytesPerNs; }},
    {"dma", "core_bandwidth", "bytes/ns", kMinBandwidth, kMaxBandwidth, false,
     [](P& p) -> double& { return p.dma.coreBytesPerNs; }},
    {"dma", "fixed_latency", "ns", 0, 1e9, false, [](P& p) -> double& { return p.dma.fixedLatencyNs; }},
    {"dma", "transpose_efficiency", "fraction", kMinDmaEfficiency, 1, false,
     [](P& p) -> double& { return p.dma.transposeEfficiency; }},
    {"dma", "sbuf_transpose_efficiency", "fraction", kMinDmaEfficiency, 1, false,
     [](P& p) -> double& { return p.dma.sbufTransposeEfficiency; }},
    {"hbm", "bandwidth_per_core", "bytes/ns", kMinBandwidth, kMaxBandwidth, false,
     [](P& p) -> double& { return p.hbmBytesPerNs; }},
};

} // namespace

std::span<const ProfileField> profileFields() {
    return kFields;
}

const ProfileField* findProfileField(std::string_view name) {
    for (const ProfileField& f : kFields) {
        if (name == f.name()) {
            return &f;
        }
    }
    return nullptr;
}

Expected<void> checkProfile(const HardwareProfile& profile, std::string_view origin) {
    const auto bad = [&](std::string message) {
        return makeError(ErrorCode::Parse, std::move(message), std::string(origin), 0,
                         "compare with resources/hw/trn1.json; docs/simulator.md lists the accepted ranges");
    };
    HardwareProfile copy = profile; // the accessors hand out mutable references
    for (const ProfileField& f : kFields) {
        const double v = f.field(copy);
        if (!std::isfinite(v) || v < f.minimum || v > f.maximum || (f.integral && v != std::floor(v))) {
            return bad(fmt::format("{}: expected {} from {:g} to {:g} {}, found {:g}", f.name(),
                                   f.integral ? "a whole number" : "a number", f.minimum, f.maximum, f.unit, v));
        }
    }
    const auto& table = profile.dma.efficiency;
    if (table.size() > kMaxEfficiencyPoints) {
        return bad(fmt::format("dma.efficiency_by_bytes_per_partition: at most {} points, found {}",
                               kMaxEfficiencyPoints, table.size()));
    }
    for (std::size_t i = 0; i < table.size(); ++i) {
        const DmaEfficiencyPoint& e = table[i];
        const bool ascending = i == 0 || e.bytesPerPartition > table[i - 1].bytesPerPartition;
        if (!(e.bytesPerPartition >= 1 && e.bytesPerPartition <= kMaxEfficiencyBytes) || !ascending ||
            !(e.efficiency >= kMinDmaEfficiency && e.efficiency <= 1)) {
            return bad(fmt::format("dma.efficiency_by_bytes_per_partition[{}]: expected [bytes, efficiency] with bytes "
                                   "from 1 to 2^40, ascending, and efficiency from {:g} to 1, found [{:g}, {:g}]",
                                   i, kMinDmaEfficiency, e.bytesPerPartition, e.efficiency));
        }
    }
    return {};
}

} // namespace kl::sim
