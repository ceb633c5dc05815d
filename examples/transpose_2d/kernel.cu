// out = in^T for a square row-major float32 matrix.
// Classic shared-memory transpose: a 32 x 8 thread block moves one 32 x 32 tile,
// reading rows of `in` and writing rows of `out` so both sides stay coalesced.
#include <cuda_runtime.h>

constexpr int N = 2048;
constexpr int TILE = 32;
constexpr int ROWS_PER_PASS = 8;   // blockDim.y

__global__ void transpose_2d(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float tile[TILE][TILE + 1];   // +1 column: no bank conflicts on the column read

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * N + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        out[static_cast<size_t>(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}
