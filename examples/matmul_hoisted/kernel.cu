// C[M,N] = A[M,K] * B[K,N] in bfloat16 with float32 accumulation; A arrives as AT[K,M].
// Shared-memory tiling with thread coarsening along N: each thread owns TN outputs
// of one row of C, so every A value read from shared memory is hoisted into a
// register once and reused TN times.
#include <cuda_bf16.h>

constexpr int K_DIM = 8192;
constexpr int M_DIM = 4096;
constexpr int N_DIM = 8192;
constexpr int BM = 32;          // rows of C per block
constexpr int BK = 32;          // depth of one shared-memory stage
constexpr int TN = 4;           // outputs per thread along N
constexpr int BN = 32 * TN;     // columns of C per block (128)

__global__ void matmul_tiled_coarsened(const __nv_bfloat16* __restrict__ AT,
                                       const __nv_bfloat16* __restrict__ B,
                                       __nv_bfloat16* __restrict__ C)
{
    __shared__ float As[BK][BM + 1];   // As[k][m]
    __shared__ float Bs[BK][BN];       // Bs[k][n]

    const int tx = threadIdx.x;        // 0..31, column group
    const int ty = threadIdx.y;        // 0..31, row of C inside the block
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[TN] = {};
    for (int k0 = 0; k0 < K_DIM; k0 += BK) {
        As[ty][tx] = __bfloat162float(AT[static_cast<size_t>(k0 + ty) * M_DIM + m0 + tx]);
        #pragma unroll
        for (int j = 0; j < TN; ++j)
            Bs[ty][tx + 32 * j] = __bfloat162float(B[static_cast<size_t>(k0 + ty) * N_DIM + n0 + tx + 32 * j]);
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float a = As[kk][ty];            // loaded once ...
            #pragma unroll
            for (int j = 0; j < TN; ++j)
                acc[j] += a * Bs[kk][tx + 32 * j]; // ... used TN times
        }
        __syncthreads();
    }

    #pragma unroll
    for (int j = 0; j < TN; ++j)
        C[static_cast<size_t>(m0 + ty) * N_DIM + n0 + tx + 32 * j] = __float2bfloat16(acc[j]);
}
