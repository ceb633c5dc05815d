"""Sum of each row on VectorE (float32): the order of the additions decides the result."""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def row_sum(x):
    P, F = x.shape
    out = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.load(x[0:P, 0:F])
    s = nisa.tensor_reduce(nl.add, t, axis=(1,), keepdims=True)
    nl.store(out[0:P, 0:1], value=s)
    return out
