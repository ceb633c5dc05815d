// Element-wise sum of two row-major float32 matrices: c = a + b.
// Grid-stride loop over 16-byte vectors; the matrix is treated as one flat array.
#include <cuda_runtime.h>

constexpr int ROWS = 4096;
constexpr int COLS = 1024;
constexpr int THREADS = 256;
constexpr size_t VECS = static_cast<size_t>(ROWS) * COLS / 4;

__global__ void __launch_bounds__(THREADS)
vector_add_vec4(const float4* __restrict__ a,
                const float4* __restrict__ b,
                float4* __restrict__ c)
{
    const size_t stride = static_cast<size_t>(gridDim.x) * THREADS;
    for (size_t v = static_cast<size_t>(blockIdx.x) * THREADS + threadIdx.x; v < VECS; v += stride) {
        const float4 x = a[v];
        const float4 y = b[v];
        float4 z;
        z.x = x.x + y.x;
        z.y = x.y + y.y;
        z.z = x.z + y.z;
        z.w = x.w + y.w;
        c[v] = z;
    }
}
