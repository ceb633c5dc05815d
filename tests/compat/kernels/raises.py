"""Compat fixture: a kernel that raises on a known line (line 14); the compat test asserts that line."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def raises(a, scale):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[0:128, 0:cols])
    if scale != 2:
        raise ValueError(f"compat fixture: scale must be 2, got {scale}")
    nisa.dma_copy(dst=out[0:128, 0:cols], src=t)
    return out
