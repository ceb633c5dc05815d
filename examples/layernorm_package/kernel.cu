// LayerNorm over the last axis, one block per row: y = (x - mean) / sqrt(var + eps) * gamma + beta.
#include <cuda_runtime.h>

__device__ float block_sum(float v, float* shared);  // tree reduction over the block, in shared memory

__global__ void layernorm_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ y, int cols, float eps) {
    extern __shared__ float shared[];
    const int row = blockIdx.x;
    const float* xr = x + (size_t)row * cols;
    float sum = 0.f, sq = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = xr[c];
        sum += v;
        sq += v * v;
    }
    sum = block_sum(sum, shared);
    __syncthreads();
    sq = block_sum(sq, shared);
    const float mean = sum / cols;
    const float var = sq / cols - mean * mean;
    const float rstd = rsqrtf(var + eps);
    float* yr = y + (size_t)row * cols;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
    }
}
