#include "engine/OpCostTable.h"

namespace kl::sim {

namespace {

using F = CostFormula;
using E = CostEvidence;

// One row per KL_OP of ops.def, where each op's formula, evidence and source are written (with the documents'
// abbreviations: ISA, ENG, TRN2, TRN3, DMA as in docs/simulator.md).
constexpr std::array<OpCostRow, static_cast<std::size_t>(Op::Count)> kTable{{
#define KL_OP(id, name, engine, formula, evidence, source, ...) {Op::id, F::formula, E::evidence, source},
#include "frontend/kltrace/ops.def"
}};

constexpr bool inEnumOrder() {
    for (std::size_t i = 0; i < kTable.size(); ++i) {
        if (static_cast<std::size_t>(kTable[i].op) != i) {
            return false;
        }
    }
    return true;
}
static_assert(inEnumOrder(), "kOpCosts: one row per Op, in the enum's order");

} // namespace

const std::array<OpCostRow, static_cast<std::size_t>(Op::Count)> kOpCosts = kTable;

std::string_view costFormulaName(CostFormula formula) {
    switch (formula) {
    case F::Matmul: return "matmul";
    case F::Transpose: return "transpose";
    case F::ElementWise: return "element-wise";
    case F::TensorTensor: return "tensor-tensor";
    case F::Scan: return "scan";
    case F::Reduce: return "reduce";
    case F::ElementWisePlusIi: return "element-wise + MIN_II";
    case F::BnAggr: return "bn_aggr";
    case F::Reciprocal: return "reciprocal";
    case F::GpSimdStartup: return "gpsimd start-up";
    case F::Memset: return "memset";
    case F::Predicated: return "predicated";
    case F::Dma: return "dma";
    case F::Fallback: return "fallback";
    }
    return "?";
}

} // namespace kl::sim
