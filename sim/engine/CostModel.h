#pragma once

#include "engine/SimTypes.h"
#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

namespace kl::sim {

/// Engine cycles of one instruction from the documented formulas (shared/reference/neuroncore.md,
/// "Instruction cost model"), and their conversion to time on the instruction's engine clock. Stateless
/// apart from the profile; the Pipeline adds the fixed and semaphore overheads.
///
///   nc_matmul      LoadStationary = stationary_free / speedup; MultiplyMoving = max(moving_free, 64) (x4 fp32)
///   nc_transpose   max(P, min(64, F))
///   tensor_scalar, tensor_copy, activation, memset, select   max(MIN_II, N)
///   tensor_tensor  max(MIN_II, N) with a PSUM input or BF16 add/sub/mul in SBUF, else max(MIN_II, 2N)
///   tensor_reduce  N/2 for BF16 add/max, else N;  activation_reduce max(MIN_II, N) + MIN_II
///   bn_stats max(MIN_II, N);  bn_aggr max(MIN_II, 13N/3);  reciprocal max(MIN_II, 8N);  iota/affine_select 150 + N
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

private:
    [[nodiscard]] bool tensorTensorFastPath(const KernelIr& ir, const Instruction& in) const;

    const HardwareProfile& m_hw;
};

} // namespace kl::sim
