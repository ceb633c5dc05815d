// out[p, c] = min(0.5 * sum over bands b of x[b * 128 + p, c], 1) + 1: bfloat16 in and out, float accumulation.
#include <cuda_bf16.h>

__global__ void band_sum(const __nv_bfloat16* x, __nv_bfloat16* out, int bands, int C)
{
    const int p = blockIdx.x;
    const int c = threadIdx.x;
    float acc = 0.0f;
    for (int b = 0; b < bands; ++b) {
        const float v = __bfloat162float(x[(b * 128 + p) * C + c]);
        acc += v;
    }
    const float scaled = acc * 0.5f;
    const float clipped = fminf(scaled, 1.0f);
    const float result = clipped + 1.0f;
    out[p * C + c] = __float2bfloat16(result);
}
