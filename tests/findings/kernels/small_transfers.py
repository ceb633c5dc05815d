"""dma-small-transfers: the same element-wise add moved in [128, 64] float32 tiles (256 B per partition) or in
[128, 1024] tiles (4 KiB per partition)."""
import nki
import nki.isa as nisa
import nki.language as nl


def add_in_tiles(a, b, width):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for band in nl.affine_range(rows // 128):
        for c in nl.affine_range(cols // width):
            r0 = band * 128
            c0 = c * width
            x = nl.ndarray((128, width), dtype=a.dtype, buffer=nl.sbuf)
            y = nl.ndarray((128, width), dtype=a.dtype, buffer=nl.sbuf)
            nisa.dma_copy(dst=x, src=a[r0:r0 + 128, c0:c0 + width])
            nisa.dma_copy(dst=y, src=b[r0:r0 + 128, c0:c0 + width])
            z = nl.ndarray((128, width), dtype=a.dtype, buffer=nl.sbuf)
            nisa.tensor_tensor(dst=z, data1=x, data2=y, op=nl.add)
            nisa.dma_copy(dst=out[r0:r0 + 128, c0:c0 + width], src=z)
    return out


@nki.jit
def narrow_tiles(a, b):
    return add_in_tiles(a, b, 64)


@nki.jit
def wide_tiles(a, b):
    return add_in_tiles(a, b, 1024)
