"""partitions-underused: element-wise work on [16, 2048] tiles (16 of 128 partitions) or the same elements as
[128, 256] tiles."""
import nki
import nki.isa as nisa
import nki.language as nl


def scale_tiles(a, parts):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for band in nl.affine_range(rows // parts):
        r0 = band * parts
        x = nl.ndarray((parts, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[r0:r0 + parts, 0:cols])
        for step in range(6):
            y = nl.ndarray((parts, cols), dtype=a.dtype, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=1.5)
            x = y
        nisa.dma_copy(dst=out[r0:r0 + parts, 0:cols], src=x)
    return out


@nki.jit
def few_partitions(a):
    return scale_tiles(a, 16)


@nki.jit
def all_partitions(a):
    return scale_tiles(a, 128)
