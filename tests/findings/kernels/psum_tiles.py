"""psum-bank-pressure: one PSUM tile for every step, so each matmul waits until VectorE has copied the previous
result out; or a PSUM tile per step (TensorE fills one while VectorE empties another)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def one_psum_tile(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((16 * M, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=lhsT[0:K, 0:M])
    mv = nl.ndarray((K, 512), dtype=rhs.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mv, src=rhs[0:K, 0:512])
    acc = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.psum)
    for step in nl.sequential_range(16):
        nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=False)
        res = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=acc)
        nisa.dma_copy(dst=out[step * M:(step + 1) * M, 0:512], src=res)
    return out


@nki.jit
def psum_tile_per_step(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((16 * M, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=lhsT[0:K, 0:M])
    mv = nl.ndarray((K, 512), dtype=rhs.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mv, src=rhs[0:K, 0:512])
    for step in nl.affine_range(16):
        acc = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=False)
        res = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=acc)
        nisa.dma_copy(dst=out[step * M:(step + 1) * M, 0:512], src=res)
    return out


@nki.jit
def too_many_psum_tiles(lhsT, rhs):
    """Ten accumulation tiles live at once, two more than PSUM's eight banks: the simulator places them anyway
    (overflow) and nothing waits, so psum-bank-pressure stays silent (overflow is a figure, not a finding)."""
    K, M = lhsT.shape
    out = nl.ndarray((10 * M, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=lhsT[0:K, 0:M])
    mv = nl.ndarray((K, 512), dtype=rhs.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=mv, src=rhs[0:K, 0:512])
    accs = []
    for t in range(10):
        acc = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=False)
        accs.append(acc)
    for t in range(10):
        res = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=accs[t])
        nisa.dma_copy(dst=out[t * M:(t + 1) * M, 0:512], src=res)
    return out
