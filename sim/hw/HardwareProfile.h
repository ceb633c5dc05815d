#pragma once

#include "common/Error.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kl::sim {

/// Cost-formula constants, in engine cycles unless named otherwise (shared/reference/neuroncore.md).
struct CostConstants {
    double minIi = 64;                 ///< MIN_II: minimum initiation interval of an engine instruction
    double accessOverhead = 60;        ///< fixed cycles per SBUF/PSUM access request (per instruction)
    double staticOverhead = 100;       ///< semaphore/static overhead of an instruction that waited on a dependency
    double matmulMinInterval = 64;     ///< back-to-back MultiplyMoving interval floor
    double fp32MatmulFactor = 4;       ///< FP32 matmul inputs cost this many times BF16
    double loadStationarySpeedup = 4;  ///< LoadStationary is this much faster than an MM of the same free size
    double gpsimdStartup = 150;        ///< iota / affine_select start-up
    double bnAggrFactor = 13.0 / 3.0;  ///< bn_aggr: max(MIN_II, factor * N)
    double reciprocalFactor = 8;       ///< reciprocal: max(MIN_II, factor * N)
    double tensorTensorSlowFactor = 2; ///< tensor_tensor off the fast path: max(MIN_II, factor * N)
    double reduceFastDivisor = 2;      ///< tensor_reduce BF16 add/max: N / divisor
    double vectorFastCopyDivisor = 1;  ///< VectorE tensor_copy/tensor_scalar, BF16/FP16 contiguous in SBUF: N / divisor
    double vectorFastDivisor = 1;      ///< VectorE BF16/FP16 performance mode otherwise (strided, PSUM, tensor_tensor)
    double scalarFastDivisor = 1;      ///< ScalarE tensor_copy/tensor_scalar BF16/FP16 performance mode
    double memsetZeroDivisor = 2;      ///< memset of zero into BF16/FP16: max(MIN_II, N / divisor)
    double transposeFp32Factor = 4;    ///< TensorE nc_transpose of FP32 data costs this many times BF16
    double mxMatmulSpeedup = 1;        ///< FLOPs of an MX matmul (nc_matmul_mx) per BF16 matmul cycle
    double peRows = 128;               ///< systolic array size, for peak FLOPs
    double peCols = 128;
};

/// Capacity of one on-chip memory. Allocation is per partition: a tile reserves its free bytes in every
/// partition (docs/simulator.md).
struct MemoryGeometry {
    double partitions = 128;
    double partitionBytes = 0;
    double bankBytes = 0; ///< allocation granularity (PSUM bank); 0 = byte granular
};

struct DmaEfficiencyPoint {
    double bytesPerPartition = 0;
    double efficiency = 1;
};

struct DmaParams {
    double engines = 16;
    double queues = 16;
    double partitionsPerEngine = 8;
    double engineBytesPerNs = 17;               ///< practical bandwidth of one DMA engine
    double coreBytesPerNs = 272;                ///< practical DMA bandwidth of one core (all engines)
    double fixedLatencyNs = 1300;               ///< descriptor set-up + semaphore before data moves
    double transposeEfficiency = 0.9;           ///< DMA transpose HBM to SBUF: fraction of a copy's throughput
    double sbufTransposeEfficiency = 0.5;       ///< DMA transpose SBUF to SBUF: fraction of a copy's throughput
    std::vector<DmaEfficiencyPoint> efficiency; ///< by bytes per partition, ascending
};

/// A field's `source` starting with this marks a number no public document gives for this hardware: the rest
/// of the string says where the value was carried over from and why (docs/simulator.md, "Hardware profiles").
inline constexpr std::string_view kAssumptionPrefix = "ASSUMPTION:";

/// Every number the simulator uses, loaded from resources/hw/<name>.json where each field carries its
/// source. Plain data: the engine reads it, nothing writes it after loading.
struct HardwareProfile {
    std::string name;
    std::string description;
    std::vector<std::string> assumptions; ///< "group.key" of each field whose source starts with kAssumptionPrefix
    double tensorGhz = 2.8;
    double vectorGhz = 1.12;
    double scalarGhz = 1.4;
    double gpsimdGhz = 1.4;
    CostConstants costs;
    MemoryGeometry sbuf;
    MemoryGeometry psum;
    DmaParams dma;
    double hbmBytesPerNs = 410; ///< HBM bandwidth available to one core
    /// Physical cores a logical NeuronCore may group (`cores.max_lnc`, optional, 1 when absent): 2 on Trainium2/3.
    int maxLnc = 1;

    /// DMA efficiency for a transfer moving `bytesPerPartition` bytes per partition: linear in log2(bytes)
    /// between table points, clamped at both ends.
    [[nodiscard]] double dmaEfficiency(double bytesPerPartition) const;
    /// Dense BF16 peak of TensorE in FLOP/ns.
    [[nodiscard]] double peakFlopsPerNs() const { return costs.peRows * costs.peCols * 2.0 * tensorGhz; }

    [[nodiscard]] static Expected<HardwareProfile> loadFile(const std::filesystem::path& path);
    [[nodiscard]] static Expected<HardwareProfile> loadString(std::string_view json,
                                                              std::string_view origin = "<string>");
};

} // namespace kl::sim
