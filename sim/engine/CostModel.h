#pragma once

#include "engine/SimTypes.h"
#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

namespace kl::sim {

/// Engine cycles of one instruction from the documented formulas, and their conversion to time on the
/// instruction's engine clock. Which formula an op uses, and the document it comes from, is `kOpCosts`
/// (engine/OpCostTable.h, one row per op); the constants are the profile's `costs.*` fields. Stateless apart
/// from the profile; the Pipeline adds the fixed and semaphore overheads.
///
///   nc_matmul      LoadStationary = stationary_free / speedup; MultiplyMoving = max(min(64, stationary), moving) (x4
///   fp32) nc_transpose   TensorE max(P, min(64, F)) (x transpose_fp32_factor); VectorE max(MIN_II, N) tensor_scalar,
///   tensor_copy   max(MIN_II, N / performance-mode divisor); activation, bn_stats max(MIN_II, N) tensor_tensor
///   max(MIN_II, N) with a PSUM input or BF16 add/sub/mul in SBUF, else max(MIN_II, 2N), / VectorE divisor
///   tensor_reduce  N/2 for BF16 add/max, else N;  activation_reduce max(MIN_II, N) + MIN_II;  scan max(MIN_II, 2N)
///   bn_aggr max(MIN_II, 13N/3);  reciprocal max(MIN_II, 8N) (VectorE);  iota/affine_select 150 + N;  memset 0 N/2
class CostModel {
public:
    explicit CostModel(const HardwareProfile& hw);

    struct MatmulCycles {
        double loadStationary = 0;
        double multiplyMoving = 0;
        double flops = 0;
    };
    [[nodiscard]] MatmulCycles matmul(const KernelIr& ir, const Instruction& in) const;
    /// Cycles of a non-matmul compute instruction, without the fixed overheads.
    [[nodiscard]] double cycles(const KernelIr& ir, const Instruction& in) const;
    /// Free elements per partition the instruction produces (N in the formulas).
    [[nodiscard]] static double freeElements(const KernelIr& ir, const Instruction& in);
    [[nodiscard]] double ghz(Engine engine) const;
    /// Cycles to picoseconds on `engine`'s clock, rounded up so that no cost becomes zero.
    [[nodiscard]] TimePs toPs(double cycles, Engine engine) const;

    /// Fraction of a plain copy's DMA throughput a transfer gets (DMA transposes are slower).
    [[nodiscard]] double dmaEfficiencyScale(const KernelIr& ir, const Instruction& in) const;

private:
    /// What the performance modes and fast paths ask of an instruction's operands (destinations and sources).
    struct Operands {
        bool anyPsum = false;
        bool allSbuf = true;
        bool all16Bit = true; ///< every operand BF16 or FP16
        bool allBf16 = true;
        bool contiguous = true;    ///< innermost stride 1 everywhere
        bool srcContiguous = true; ///< innermost stride 1 in every source
    };
    [[nodiscard]] static Operands operands(const KernelIr& ir, const Instruction& in);
    [[nodiscard]] double tensorTensorCycles(const KernelIr& ir, const Instruction& in, double n) const;
    [[nodiscard]] double elementWiseCycles(const KernelIr& ir, const Instruction& in, double n) const;
    [[nodiscard]] double predicatedCycles(const KernelIr& ir, const Instruction& in, double n) const;

    const HardwareProfile& m_hw;
};

} // namespace kl::sim
