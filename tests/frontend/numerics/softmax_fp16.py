"""Row softmax in float16, with and without subtracting the row maximum."""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def softmax_fp16(x, stable=False):
    P, F = x.shape
    out = nl.ndarray((P, F), dtype=nl.float16, buffer=nl.shared_hbm)
    t = nl.load(x[0:P, 0:F])
    total = nl.ndarray((P, 1), dtype=nl.float16, buffer=nl.sbuf)
    if stable:
        neg_max = nisa.tensor_reduce(nl.max, t, axis=(1,), negate=True, keepdims=True)
        e = nisa.activation_reduce(op=nl.exp, data=t, reduce_op=nl.add, reduce_res=total, bias=neg_max,
                                   dtype=nl.float16)
    else:
        e = nisa.activation_reduce(op=nl.exp, data=t, reduce_op=nl.add, reduce_res=total, dtype=nl.float16)
    inv = nisa.reciprocal(total)
    y = nisa.tensor_scalar(e, nl.multiply, inv, dtype=nl.float16)
    nl.store(out[0:P, 0:F], value=y)
    return out
