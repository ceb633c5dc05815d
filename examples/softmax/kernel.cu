// Row softmax of a row-major float32 matrix: y[r, :] = exp(x[r, :] - max) / sum.
// One block of 256 threads per row; max and sum are tree-reduced in shared memory.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int ROWS = 4096;
constexpr int COLS = 2048;
constexpr int THREADS = 256;

__global__ void __launch_bounds__(THREADS)
softmax_rows(const float* __restrict__ x, float* __restrict__ y)
{
    __shared__ float red[THREADS];
    const int t = threadIdx.x;
    const float* xr = x + static_cast<size_t>(blockIdx.x) * COLS;
    float* yr = y + static_cast<size_t>(blockIdx.x) * COLS;

    // 1. row maximum, subtracted below for numerical stability
    float m = -FLT_MAX;
    for (int c = t; c < COLS; c += THREADS)
        m = fmaxf(m, xr[c]);
    red[t] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    const float row_max = red[0];
    __syncthreads();

    // 2. exponentials and their sum
    float sum = 0.0f;
    for (int c = t; c < COLS; c += THREADS) {
        const float e = __expf(xr[c] - row_max);
        yr[c] = e;
        sum += e;
    }
    red[t] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    const float inv_sum = 1.0f / red[0];

    // 3. normalise
    for (int c = t; c < COLS; c += THREADS)
        yr[c] *= inv_sum;
}
