"""out[M, N] = lhsT.T @ rhs (float32) of bfloat16 operands, K in tiles of 128 accumulated in one float32 PSUM tile."""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def mm_fp32_acc(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((M, N), dtype=nl.float32, buffer=nl.psum)
    for k in nl.affine_range(K // 128):
        a = nl.load(lhsT[k * 128:(k + 1) * 128, 0:M])
        b = nl.load(rhs[k * 128:(k + 1) * 128, 0:N])
        acc += nisa.nc_matmul(a, b)
    res = nl.copy(acc, dtype=nl.float32)
    nl.store(out[0:M, 0:N], value=res)
    return out
