"""Compat fixture: copies a through SBUF into a new HBM tensor (standalone nki API). Traces and simulates."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def copy_tile(a):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(rows // 128):
        t = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=a[r * 128:(r + 1) * 128, 0:cols])
        nisa.dma_copy(dst=out[r * 128:(r + 1) * 128, 0:cols], src=t)
    return out


@nki.jit
def copy_fixed(rows=128, cols=256):
    """Every parameter has a default: compat runs it without a manifest."""
    out = nl.ndarray((rows, cols), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((rows, cols), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=t, value=0.0)
    nisa.dma_copy(dst=out, src=t)
    return out
