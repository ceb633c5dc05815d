"""tensor-idle-waiting: the moving operand lives in one SBUF tile for every step (its next load waits for the
matmul reading it), or gets a tile per step (loads run ahead of TensorE)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def single_buffer(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=lhsT[0:K, 0:M])
    mv = nl.ndarray((K, 512), dtype=rhs.dtype, buffer=nl.sbuf)
    acc = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.psum)
    for n in nl.sequential_range(N // 512):
        nisa.dma_copy(dst=mv, src=rhs[0:K, n * 512:(n + 1) * 512])
        nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=n > 0)
    res = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out[0:M, 0:512], src=res)
    return out


@nki.jit
def tile_per_step(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=lhsT[0:K, 0:M])
    acc = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.psum)
    for n in nl.sequential_range(N // 512):
        mv = nl.ndarray((K, 512), dtype=rhs.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=mv, src=rhs[0:K, n * 512:(n + 1) * 512])
        nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=n > 0)
    res = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out[0:M, 0:512], src=res)
    return out
