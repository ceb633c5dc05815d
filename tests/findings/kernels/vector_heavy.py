"""engine-bound: twelve VectorE steps per tile (VectorE sets the pace), or the same twelve steps shared between
VectorE, ScalarE and GpSimdE."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def vector_only(a):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for band in nl.affine_range(rows // 128):
        r0 = band * 128
        x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[r0:r0 + 128, 0:cols])
        for step in range(12):
            y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=1.5, op1=nl.add, operand1=0.5)
            x = y
        nisa.dma_copy(dst=out[r0:r0 + 128, 0:cols], src=x)
    return out


@nki.jit
def shared_engines(a):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for band in nl.affine_range(rows // 128):
        r0 = band * 128
        x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[r0:r0 + 128, 0:cols])
        y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=1.5, op1=nl.add, operand1=0.5)
        z = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.activation(dst=z, op=nl.exp, data=y, scale=1.0)
        nisa.dma_copy(dst=out[r0:r0 + 128, 0:cols], src=z)
    return out
