// Row scaling y = x / max|x| per row, one block per row (the CUDA kernel the NKI one was ported from).
#include <cuda_runtime.h>

__global__ void row_absmax_scale(const float* __restrict__ x, float* __restrict__ y, int cols)
{
    __shared__ float red[256];
    const float* xr = x + static_cast<size_t>(blockIdx.x) * cols;
    float* yr = y + static_cast<size_t>(blockIdx.x) * cols;
    float m = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, fabsf(xr[c]));
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    const float inv = 1.f / red[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = xr[c] * inv;
}
