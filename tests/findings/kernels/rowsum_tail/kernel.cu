// out[r, c] = 2 * x[r, c] + 1 for an R x C float matrix; one thread per element.
__global__ void scale_shift(const float* x, float* out, int R, int C)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y;
    if (r >= R || c >= C)
        return;
    const float v = x[r * C + c];
    out[r * C + c] = 2.0f * v + 1.0f;
}
