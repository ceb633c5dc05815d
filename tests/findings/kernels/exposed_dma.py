"""exposed-dma: one SBUF tile for every row band (allocated outside a sequential loop), so each load waits for
the previous band's compute and each compute waits for its load: DMA and VectorE take turns."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def serial_bands(a):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
    y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
    for band in nl.sequential_range(rows // 128):
        r0 = band * 128
        nisa.dma_copy(dst=x, src=a[r0:r0 + 128, 0:cols])
        nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=2.0)
        nisa.tensor_scalar(dst=x, data=y, op0=nl.add, operand0=1.0)
        nisa.dma_copy(dst=out[r0:r0 + 128, 0:cols], src=x)
    return out


@nki.jit
def pipelined_bands(a):
    """The same work with tiles allocated per band: the next band's load runs while VectorE works."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for band in nl.affine_range(rows // 128):
        r0 = band * 128
        x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        z = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[r0:r0 + 128, 0:cols])
        nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=2.0)
        nisa.tensor_scalar(dst=z, data=y, op0=nl.add, operand0=1.0)
        nisa.dma_copy(dst=out[r0:r0 + 128, 0:cols], src=z)
    return out
