#pragma once

#include "ir/IrTypes.h"

#include <array>
#include <cstddef>
#include <string_view>

namespace kl::sim {

/// How an op's engine cycles are computed (CostModel::cycles dispatches on it). Every op of `Op` has exactly
/// one row in `kOpCosts`; the constants of the formulas are hardware profile fields (`costs.*`, `dma.*`), so
/// the per-hardware numbers and their sources live in resources/hw/*.json and the formula and its evidence
/// here, once.
enum class CostFormula : std::uint8_t {
    Matmul,            ///< LoadStationary + MultiplyMoving (CostModel::matmul)
    Transpose,         ///< TensorE: max(P, min(64, F)) x fp32 factor; VectorE: max(MIN_II, N)
    ElementWise,       ///< max(MIN_II, N / fast-mode divisor)
    TensorTensor,      ///< max(MIN_II, N or 2N) / VectorE BF16 divisor
    Scan,              ///< max(MIN_II, 2N)
    Reduce,            ///< N/2 for BF16 add/max, else N (input elements)
    ElementWisePlusIi, ///< max(MIN_II, N) + MIN_II
    BnAggr,            ///< max(MIN_II, 13N/3)
    Reciprocal,        ///< max(MIN_II, 8N) on VectorE, max(MIN_II, N) on ScalarE
    GpSimdStartup,     ///< GPSIMD_START + N
    Memset,            ///< max(MIN_II, N/2) zero fill of BF16/FP16, else as ElementWise
    Predicated,        ///< max(MIN_II, N) with a PSUM operand, else max(MIN_II, 2N)
    Dma,               ///< DmaUnit: fixed latency + bytes / (bandwidth x efficiency)
    Fallback,          ///< an op the simulator does not know: max(MIN_II, N) and a diagnostic
};

/// Whether a public document gives the formula for the op, or it is carried over from the closest documented op.
enum class CostEvidence : std::uint8_t { Documented, Assumed };

struct OpCostRow {
    Op op;
    CostFormula formula;
    CostEvidence evidence;
    std::string_view source; ///< the document (or, for Assumed, the op it is derived from and why)
};

/// One row per `Op`, in enum order (checked at compile time). docs/simulator.md, "Instruction costs", is this
/// table with the per-hardware parameters; a test checks that every op is in it.
extern const std::array<OpCostRow, static_cast<std::size_t>(Op::Count)> kOpCosts;

[[nodiscard]] inline const OpCostRow& opCost(Op op) {
    return kOpCosts[static_cast<std::size_t>(op)];
}
[[nodiscard]] std::string_view costFormulaName(CostFormula formula);

} // namespace kl::sim
