"""small-moving-free: matmuls on a resident stationary tile with 32 moving columns each (below the 64-column
minimum interval), or with 512."""
import nki
import nki.isa as nisa
import nki.language as nl


def repeated_matmuls(lhsT, rhs, width):
    K, M = lhsT.shape
    out = nl.ndarray((M, width), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=lhsT[0:K, 0:M])
    mv = nl.ndarray((K, width), dtype=rhs.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mv, src=rhs[0:K, 0:width])
    acc = nl.ndarray((M, width), dtype=nl.float32, buffer=nl.psum)
    for rep in range(256):
        nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=rep > 0)
    res = nl.ndarray((M, width), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out[0:M, 0:width], src=res)
    return out


@nki.jit
def narrow_moving(lhsT, rhs):
    return repeated_matmuls(lhsT, rhs, 32)


@nki.jit
def wide_moving(lhsT, rhs):
    return repeated_matmuls(lhsT, rhs, 512)
