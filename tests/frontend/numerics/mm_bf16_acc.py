"""The same product with every K tile's partial sum added into a bfloat16 SBUF tile (on purpose)."""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def mm_bf16_acc(lhsT, rhs):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    total = nl.zeros((M, N), dtype=nl.bfloat16, buffer=nl.sbuf)
    for k in nl.sequential_range(K // 128):
        a = nl.load(lhsT[k * 128:(k + 1) * 128, 0:M])
        b = nl.load(rhs[k * 128:(k + 1) * 128, 0:N])
        part = nisa.nc_matmul(a, b)
        total[...] = nl.add(total, part, dtype=nl.bfloat16)  # BF16 ACCUMULATION
    nl.store(out[0:M, 0:N], value=nl.copy(total, dtype=nl.float32))
    return out
