"""transpose-on-tensor: each loaded [128, 128] bfloat16 tile is transposed on TensorE (through PSUM, copied back to
SBUF) before four matmuls use it; or it is loaded transposed by a DMA transpose."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def transpose_on_tensor(x, rhs):
    T, P = x.shape
    out = nl.ndarray((T, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    mv = nl.ndarray((128, 512), dtype=rhs.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mv, src=rhs[0:128, 0:512])
    for t in nl.affine_range(T // 128):
        xt_in = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=xt_in, src=x[t * 128:(t + 1) * 128, 0:128])
        xt_ps = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(dst=xt_ps, data=xt_in)
        xt = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.sbuf)
        nisa.tensor_copy(dst=xt, src=xt_ps)
        acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
        for rep in range(4):
            nisa.nc_matmul(dst=acc, stationary=xt, moving=mv, accumulate=rep > 0)
        res = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=acc)
        nisa.dma_copy(dst=out[t * 128:(t + 1) * 128, 0:512], src=res)
    return out


@nki.jit
def transpose_by_dma(x, rhs):
    T, P = x.shape
    out = nl.ndarray((T, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    mv = nl.ndarray((128, 512), dtype=rhs.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mv, src=rhs[0:128, 0:512])
    for t in nl.affine_range(T // 128):
        xt = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_transpose(dst=xt, src=x[t * 128:(t + 1) * 128, 0:128])
        acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
        for rep in range(4):
            nisa.nc_matmul(dst=acc, stationary=xt, moving=mv, accumulate=rep > 0)
        res = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=acc)
        nisa.dma_copy(dst=out[t * 128:(t + 1) * 128, 0:512], src=res)
    return out
