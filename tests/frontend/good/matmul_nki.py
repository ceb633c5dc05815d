"""Matmul with PSUM accumulation over K (standalone nki API): out[M, N] = lhsT[K, M].T @ rhs[K, N]."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def mm(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.psum)
    for k in range(K // 128):
        x = nl.ndarray((128, M), dtype=lhsT.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, N), dtype=rhs.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=lhsT[k * 128:(k + 1) * 128, 0:M])
        nisa.dma_copy(dst=y, src=rhs[k * 128:(k + 1) * 128, 0:N])
        nisa.nc_matmul(acc, x, y)
    res = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out, src=res)
    return out
