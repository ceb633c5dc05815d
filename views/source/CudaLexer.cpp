#include "source/CudaLexer.h"

#include <QColor>
#include <QFont>

namespace kl::views {

namespace {
constexpr const char* kCudaWords =
    "__global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __forceinline__ "
    "__noinline__ __launch_bounds__ __grid_constant__ "
    "threadIdx blockIdx blockDim gridDim warpSize "
    "__syncthreads __syncthreads_count __syncthreads_and __syncthreads_or __syncwarp __threadfence "
    "__threadfence_block __threadfence_system "
    "atomicAdd atomicSub atomicExch atomicMin atomicMax atomicInc atomicDec atomicCAS atomicAnd atomicOr "
    "atomicXor "
    "__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __shfl __shfl_up __shfl_down __shfl_xor "
    "__ballot_sync __any_sync __all_sync __activemask __popc __clz __ffs "
    "__expf __exp10f __logf __log2f __log10f __powf __sinf __cosf __tanf __sincosf __fdividef __frcp_rn "
    "__fsqrt_rn __frsqrt_rn __fmaf_rn __fmaf_rz __fmul_rn __fadd_rn __fdiv_rn __saturatef rsqrtf "
    "__float2bfloat16 __float2bfloat16_rn __bfloat162float __float2half __float2half_rn __half2float "
    "__float2int_rn __int2float_rn __nv_bfloat16 __nv_bfloat162 __half __half2 "
    "__ldg __stcs __ldcs cudaStream_t dim3 float2 float4 int2 int4";
} // namespace

CudaLexer::CudaLexer(QObject* parent) : QsciLexerCPP(parent) {}

const char* CudaLexer::keywords(int set) const {
    if (set == 2) {
        return kCudaWords;
    }
    return QsciLexerCPP::keywords(set);
}

QColor CudaLexer::defaultColor(int style) const {
    if (style == KeywordSet2) {
        return QColor(0x00, 0x7a, 0x87); // teal: CUDA built-ins apart from C++ keywords
    }
    return QsciLexerCPP::defaultColor(style);
}

QFont CudaLexer::defaultFont(int style) const {
    QFont font = QsciLexerCPP::defaultFont(style);
    if (style == KeywordSet2) {
        font.setBold(true);
    }
    return font;
}

} // namespace kl::views
