"""Compat fixture: a kernel inside a package (needs its package root to import mypkg.tiles)."""
import nki
import nki.isa as nisa
import nki.language as nl

from mypkg.tiles import PARTITIONS


@nki.jit
def staged_copy(a):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(rows // PARTITIONS):
        t = nl.ndarray((PARTITIONS, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=a[r * PARTITIONS:(r + 1) * PARTITIONS, 0:cols])
        nisa.dma_copy(dst=out[r * PARTITIONS:(r + 1) * PARTITIONS, 0:cols], src=t)
    return out
