// C[M,N] = A[M,K] * B[K,N] in bfloat16 with float32 accumulation; A arrives as AT[K,M].
// 2-D block tiling (128x128 per block, 8x8 per thread) plus
//   - 16-byte global loads (eight bfloat16 values per thread per operand),
//   - double-buffered shared memory: the next K stage is fetched into registers
//     while the current one is multiplied, so global latency hides behind math.
#include <cuda_bf16.h>
#include <cstdint>

constexpr int K_DIM = 8192;
constexpr int M_DIM = 4096;
constexpr int N_DIM = 8192;
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 16;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);   // 256
constexpr int VEC = 8;                           // bfloat16 values per 16-byte load

__global__ void __launch_bounds__(THREADS)
matmul_block2d_db(const __nv_bfloat16* __restrict__ AT,
                  const __nv_bfloat16* __restrict__ B,
                  __nv_bfloat16* __restrict__ C)
{
    __shared__ float As[2][BK][BM];
    __shared__ float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int tr = (tid / (BN / TN)) * TM;
    const int tc = (tid % (BN / TN)) * TN;
    const int ld_row = tid / (BM / VEC);           // 0..15: K row this thread loads
    const int ld_col = (tid % (BM / VEC)) * VEC;   // 0..120: first of its eight columns

    uint4 a_reg, b_reg;
    auto fetch = [&](int k0) {
        a_reg = *reinterpret_cast<const uint4*>(AT + static_cast<size_t>(k0 + ld_row) * M_DIM + m0 + ld_col);
        b_reg = *reinterpret_cast<const uint4*>(B + static_cast<size_t>(k0 + ld_row) * N_DIM + n0 + ld_col);
    };
    auto stash = [&](int buf) {
        const __nv_bfloat16* a = reinterpret_cast<const __nv_bfloat16*>(&a_reg);
        const __nv_bfloat16* b = reinterpret_cast<const __nv_bfloat16*>(&b_reg);
        #pragma unroll
        for (int v = 0; v < VEC; ++v) {
            As[buf][ld_row][ld_col + v] = __bfloat162float(a[v]);
            Bs[buf][ld_row][ld_col + v] = __bfloat162float(b[v]);
        }
    };

    float acc[TM][TN] = {};
    fetch(0);
    stash(0);
    __syncthreads();

    int buf = 0;
    for (int k0 = 0; k0 < K_DIM; k0 += BK) {
        const bool has_next = k0 + BK < K_DIM;
        if (has_next)
            fetch(k0 + BK);

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_frag[TM];
            float b_frag[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[buf][kk][tr + i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[buf][kk][tc + j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a_frag[i] * b_frag[j];
        }

        if (has_next) {
            stash(buf ^ 1);
            __syncthreads();
            buf ^= 1;
        }
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        __nv_bfloat16* row = C + static_cast<size_t>(m0 + tr + i) * N_DIM + n0 + tc;
        #pragma unroll
        for (int j = 0; j < TN; ++j)
            row[j] = __float2bfloat16(acc[i][j]);
    }
}
