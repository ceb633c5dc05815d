// Element-wise sum of two row-major float32 matrices: c = a + b.
// One thread per element on a 2-D grid of 32 x 8 thread blocks.
#include <cuda_runtime.h>

constexpr int ROWS = 4096;
constexpr int COLS = 1024;
constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;

__global__ void vector_add(const float* __restrict__ a,
                           const float* __restrict__ b,
                           float* __restrict__ c)
{
    const int col = blockIdx.x * BLOCK_X + threadIdx.x;
    const int row = blockIdx.y * BLOCK_Y + threadIdx.y;
    if (row >= ROWS || col >= COLS)
        return;

    const size_t i = static_cast<size_t>(row) * COLS + col;
    const float x = a[i];
    const float y = b[i];
    c[i] = x + y;
}
