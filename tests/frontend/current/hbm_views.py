"""Views of HBM tensors: reshape, explicit .ap() patterns on HBM and SBUF, slices; returns two tensors."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def hbm_views(a):
    flat = a.reshape((256, 64))                  # [2, 128, 64] viewed as [256, 64]
    first = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    second = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 2, 64), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t.ap(pattern=[[128, 128], [64, 2], [1, 64]]),
                  src=flat.ap(pattern=[[64, 128], [128 * 64, 2], [1, 64]]))
    half = t.reshape((128, 128))                  # on-chip reshape of the free dims
    nisa.dma_copy(dst=first, src=half[:, 0:64])
    nisa.dma_copy(dst=second, src=t[:, 1, :])
    return first, second
