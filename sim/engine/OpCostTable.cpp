#include "engine/OpCostTable.h"

namespace kl::sim {

namespace {

using F = CostFormula;
using E = CostEvidence;

// ISA = the nki.isa docstrings' "Estimated instruction cost" (Neuron 2.26, nki/api/nki/isa/__init__.py, when NKI
// targeted NeuronCore-v2 and -v3); TRN2 = Trainium2 Architecture Guide for NKI
// (nki/guides/architecture/trainium2_arch.rst); TRN3 = Trainium3 Architecture Guide for NKI
// (nki/guides/architecture/trainium3_arch.rst).
constexpr std::array<OpCostRow, static_cast<std::size_t>(Op::Count)> kTable{{
    {Op::DmaCopy, F::Dma, E::Documented,
     "NKI DMA bandwidth guide (nki/deep-dives/nki-dma-bandwidth-guide.rst): fixed ~1300 ns, per-engine bandwidth, "
     "efficiency by bytes per partition; TRN2 'DMA transpose': up to 90 % (HBM to SBUF) and 50 % (SBUF to SBUF) of "
     "DMA throughput"},
    {Op::NcMatmul, F::Matmul, E::Documented,
     "ISA nc_matmul: max(min(64, N_stationary), N_moving) TensorE cycles, 4x for fp32 inputs; TRN3: MX matmul 4x "
     "the BF16 throughput (4 packed values per element, same cycles)"},
    {Op::NcTranspose, F::Transpose, E::Documented,
     "ISA nc_transpose: TensorE max(P, min(64, F)), VectorE max(MIN_II, N); TRN2 transpose mode: fp32 transpose 2x "
     "faster than without it (a matmul, 4x for fp32)"},
    {Op::Activation, F::ElementWise, E::Documented, "ISA activation: max(MIN_II, N) ScalarE cycles"},
    {Op::ActivationReduce, F::ElementWisePlusIi, E::Documented,
     "ISA activation_reduce: max(MIN_II, N) + MIN_II ScalarE cycles"},
    {Op::TensorTensor, F::TensorTensor, E::Documented,
     "ISA tensor_tensor: max(MIN_II, N) with a PSUM input or BF16 add/sub/mul contiguous in SBUF, else "
     "max(MIN_II, 2N); ISA scalar_tensor_tensor: N for BF16 subtract-then-multiply, else 2N; TRN2 VectorE "
     "performance mode: 2x for SBUF inputs all BF16/FP16"},
    {Op::TensorScalar, F::ElementWise, E::Documented,
     "ISA tensor_scalar: max(MIN_II, N); TRN2 VectorE performance mode: 4x BF16/FP16 contiguous in SBUF, 2x "
     "strided or with a PSUM operand; TRN3 ScalarE performance mode 2x for BF16/FP16; ISA tensor_scalar_reduce: "
     "max(MIN_II, N) + MIN_II"},
    {Op::TensorReduce, F::Reduce, E::Documented,
     "ISA tensor_reduce: N/2 when input and output are BF16 and the operator is add or max, else N"},
    {Op::TensorCopy, F::ElementWise, E::Documented,
     "ISA tensor_copy: max(MIN_II, N) on any engine; TRN2/TRN3 performance modes as tensor_scalar; ISA "
     "tensor_copy_predicated: max(MIN_II, N) with a PSUM operand, else max(MIN_II, 2N)"},
    {Op::TensorTensorScan, F::Scan, E::Documented, "ISA tensor_tensor_scan: max(MIN_II, 2N) VectorE cycles"},
    {Op::Iota, F::GpSimdStartup, E::Documented, "ISA iota: 150 + N GpSimd cycles"},
    {Op::Memset, F::Memset, E::Documented,
     "ISA memset: max(MIN_II, N/2) for a zero fill of BF16/FP16, else max(MIN_II, N) VectorE cycles"},
    {Op::AffineSelect, F::GpSimdStartup, E::Documented, "ISA affine_select: GPSIMD_START (~150) + N GpSimd cycles"},
    {Op::BnStats, F::ElementWise, E::Documented, "ISA bn_stats: max(MIN_II, N) VectorE cycles"},
    {Op::BnAggr, F::BnAggr, E::Documented, "ISA bn_aggr: max(MIN_II, 13N/3) VectorE cycles"},
    {Op::Select, F::Predicated, E::Assumed,
     "ASSUMPTION: nl.where/select has no published cost; it is a predicated copy, so costed as the closest "
     "documented op, ISA tensor_copy_predicated (max(MIN_II, N) with a PSUM operand, else max(MIN_II, 2N)); "
     "ISA range_select (recorded as select) is documented: max(MIN_II, N)"},
    {Op::Reciprocal, F::Reciprocal, E::Documented,
     "NKI engine selection (nki/api/nki.api.shared.rst): max(MIN_II, 8N) on VectorE, max(MIN_II, N) on ScalarE"},
    {Op::Unknown, F::Fallback, E::Assumed,
     "ASSUMPTION: an op from a newer front end; costed as the most common documented formula, max(MIN_II, N)"},
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
