"""fp32-matmul: the same matmuls with float32 operands, or with the operands cast to bfloat16 once after loading.
The stationary tile stays resident; each step loads a new [128, 512] moving tile."""
import nki
import nki.isa as nisa
import nki.language as nl


def matmul_steps(lhsT, rhs, operand_dtype):
    K, M = lhsT.shape
    _, N = rhs.shape
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    st_raw = nl.ndarray((K, M), dtype=lhsT.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=st_raw, src=lhsT[0:K, 0:M])
    st = nl.ndarray((K, M), dtype=operand_dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=st, src=st_raw)
    for n in nl.affine_range(N // 512):
        mv_raw = nl.ndarray((K, 512), dtype=rhs.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=mv_raw, src=rhs[0:K, n * 512:(n + 1) * 512])
        mv = nl.ndarray((K, 512), dtype=operand_dtype, buffer=nl.sbuf)
        nisa.tensor_copy(dst=mv, src=mv_raw)
        acc = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.psum)
        for rep in range(8):
            nisa.nc_matmul(dst=acc, stationary=st, moving=mv, accumulate=rep > 0)
        res = nl.ndarray((M, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=res, src=acc)
        nisa.dma_copy(dst=out[0:M, n * 512:(n + 1) * 512], src=res)
    return out


@nki.jit
def fp32_operands(lhsT, rhs):
    return matmul_steps(lhsT, rhs, nl.float32)


@nki.jit
def bf16_operands(lhsT, rhs):
    return matmul_steps(lhsT, rhs, nl.bfloat16)
