// C[M,N] = A[M,K] * B[K,N] in bfloat16 with float32 accumulation; A arrives as AT[K,M].
// 2-D block tiling: a 128x128 tile of C per block of 256 threads, each thread
// holding an 8x8 sub-tile of C in registers (64 accumulators), so every value
// staged in shared memory feeds eight multiply-adds.
#include <cuda_bf16.h>

constexpr int K_DIM = 8192;
constexpr int M_DIM = 4096;
constexpr int N_DIM = 8192;
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);   // 256

__global__ void __launch_bounds__(THREADS)
matmul_block2d(const __nv_bfloat16* __restrict__ AT,
               const __nv_bfloat16* __restrict__ B,
               __nv_bfloat16* __restrict__ C)
{
    __shared__ float As[BK][BM];   // As[k][m]
    __shared__ float Bs[BK][BN];   // Bs[k][n]

    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int tr = (tid / (BN / TN)) * TM;   // first row of this thread's sub-tile
    const int tc = (tid % (BN / TN)) * TN;   // first column

    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K_DIM; k0 += BK) {
        for (int i = tid; i < BK * BM; i += THREADS)
            As[i / BM][i % BM] = __bfloat162float(AT[static_cast<size_t>(k0 + i / BM) * M_DIM + m0 + i % BM]);
        for (int i = tid; i < BK * BN; i += THREADS)
            Bs[i / BN][i % BN] = __bfloat162float(B[static_cast<size_t>(k0 + i / BN) * N_DIM + n0 + i % BN]);
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_frag[TM];
            float b_frag[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[kk][tr + i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[kk][tc + j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        __nv_bfloat16* row = C + static_cast<size_t>(m0 + tr + i) * N_DIM + n0 + tc;
        #pragma unroll
        for (int j = 0; j < TN; ++j)
            row[j] = __float2bfloat16(acc[i][j]);
    }
}
