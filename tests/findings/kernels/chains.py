"""serial-dependency-chain: forty in-place VectorE steps on one small tile (each waits for the one before), or the
same forty steps on forty independent tiles."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def one_long_chain(a):
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    x = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=x, src=a[0:128, 0:64])
    for step in range(40):
        y = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=1.01)
        x = y
    nisa.dma_copy(dst=out[0:128, 0:64], src=x)
    return out


@nki.jit
def independent_steps(a):
    out = nl.ndarray((128, 40 * 64), dtype=a.dtype, buffer=nl.shared_hbm)
    x = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=x, src=a[0:128, 0:64])
    res = nl.ndarray((128, 40 * 64), dtype=a.dtype, buffer=nl.sbuf)
    for step in range(40):
        nisa.tensor_scalar(dst=res[0:128, step * 64:(step + 1) * 64], data=x, op0=nl.multiply, operand0=1.01)
    nisa.dma_copy(dst=out[0:128, 0:40 * 64], src=res)
    return out
