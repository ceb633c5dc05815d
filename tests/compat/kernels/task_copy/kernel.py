"""Compat fixture: a task folder's kernel (standalone nki API)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def copy_task(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(a.shape[0] // 128):
        t = nl.ndarray((128, a.shape[1]), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=a[r * 128:(r + 1) * 128, :])
        nisa.dma_copy(dst=out[r * 128:(r + 1) * 128, :], src=t)
    return out
