"""Vector add with destination-first ISA calls (standalone nki API)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def vadd(a, b):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(rows // 128):
        x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[r * 128:(r + 1) * 128, 0:cols])
        nisa.dma_copy(dst=y, src=b[r * 128:(r + 1) * 128, 0:cols])
        z = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.tensor_tensor(dst=z, data1=x, data2=y, op=nl.add)
        nisa.dma_copy(dst=out[r * 128:(r + 1) * 128, 0:cols], src=z)
    return out
