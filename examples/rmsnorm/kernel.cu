// RMSNorm over the last dimension of a row-major float32 matrix:
//   y[r, c] = x[r, c] / sqrt(mean(x[r, :]^2) + eps) * w[c]
// One block of 256 threads per row; the sum of squares is tree-reduced in shared memory.
#include <cuda_runtime.h>

constexpr int ROWS = 4096;
constexpr int HIDDEN = 2048;
constexpr int THREADS = 256;
constexpr float EPS = 1e-6f;

__global__ void __launch_bounds__(THREADS)
rmsnorm_rows(const float* __restrict__ x,
             const float* __restrict__ w,
             float* __restrict__ y)
{
    __shared__ float red[THREADS];
    const int t = threadIdx.x;
    const float* xr = x + static_cast<size_t>(blockIdx.x) * HIDDEN;
    float* yr = y + static_cast<size_t>(blockIdx.x) * HIDDEN;

    float sq = 0.0f;
    for (int c = t; c < HIDDEN; c += THREADS) {
        const float v = xr[c];
        sq += v * v;
    }
    red[t] = sq;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    const float rstd = rsqrtf(red[0] / HIDDEN + EPS);

    for (int c = t; c < HIDDEN; c += THREADS)
        yr[c] = xr[c] * rstd * w[c];
}
