// C[M,N] = A[M,K] * B[K,N] in bfloat16 with float32 accumulation.
// A arrives transposed as AT[K,M], so both operands are walked along rows of K.
// Classic shared-memory tiling: one 32x32 thread block per 32x32 tile of C,
// one K-slice of each operand staged in shared memory per iteration.
#include <cuda_bf16.h>

constexpr int K_DIM = 8192;
constexpr int M_DIM = 4096;
constexpr int N_DIM = 8192;
constexpr int TILE = 32;

__global__ void matmul_tiled(const __nv_bfloat16* __restrict__ AT,
                             const __nv_bfloat16* __restrict__ B,
                             __nv_bfloat16* __restrict__ C)
{
    __shared__ float As[TILE][TILE + 1];   // As[k][m], padded against bank conflicts
    __shared__ float Bs[TILE][TILE];       // Bs[k][n]

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int m0 = blockIdx.y * TILE;
    const int n0 = blockIdx.x * TILE;

    float acc = 0.0f;
    for (int k0 = 0; k0 < K_DIM; k0 += TILE) {
        As[ty][tx] = __bfloat162float(AT[static_cast<size_t>(k0 + ty) * M_DIM + m0 + tx]);
        Bs[ty][tx] = __bfloat162float(B[static_cast<size_t>(k0 + ty) * N_DIM + n0 + tx]);
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
            acc += As[kk][ty] * Bs[kk][tx];
        __syncthreads();
    }

    C[static_cast<size_t>(m0 + ty) * N_DIM + n0 + tx] = __float2bfloat16(acc);
}
