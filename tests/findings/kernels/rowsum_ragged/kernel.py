"""tail-not-handled, handled: ceil(R / 128) bands, the last one as many rows as are left."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def scale_shift(x):
    R, C = x.shape
    out = nl.ndarray((R, C), dtype=x.dtype, buffer=nl.shared_hbm)
    for band in range((R + 127) // 128):  # cuda: 4-7
        r0 = band * 128
        rows = min(128, R - r0)
        t = nl.ndarray((128, C), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t[0:rows, 0:C], src=x[r0:r0 + rows, 0:C])  # cuda: 8
        y = nl.ndarray((128, C), dtype=x.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=y[0:rows, 0:C], data=t[0:rows, 0:C], op0=nl.multiply, operand0=2.0,  # cuda: 9
                           op1=nl.add, operand1=1.0)
        nisa.dma_copy(dst=out[r0:r0 + rows, 0:C], src=y[0:rows, 0:C])  # cuda: 9
    return out
