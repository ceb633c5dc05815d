"""Loop forms of the current API: fori_loop, while_loop over a register, sequential/static/affine ranges,
dynamic_range bounded by a loaded scalar, and NkiScalar loads and stores."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def loops_and_scalars(a, count):
    out = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)

    def body(i):
        nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)

    nl.fori_loop(0, 3, body)                                # 3 adds
    for i in nl.sequential_range(2):                         # 2 multiplies
        nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=2.0)
    for i in nl.static_range(1):
        nisa.activation(dst=t, op=nl.exp, data=t)
    c = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=c, src=count)
    n = nisa.scalar_load(c)                                  # known on the device only
    nisa.scalar_store(c, n * 2 + 1)
    for i in nl.dynamic_range(n):                            # traced once (warned)
        nisa.tensor_scalar(dst=t, data=t, op0=nl.subtract, operand0=1.0)
    reg = nisa.register_alloc(2)

    def step(r):
        nisa.tensor_scalar(dst=t, data=t, op0=nl.maximum, operand0=0.0)
        nisa.register_move(r, r.value - 1)
        return r

    nl.while_loop(reg, step)                                 # 2 maximums
    nisa.dma_copy(dst=out, src=t)
    return out
