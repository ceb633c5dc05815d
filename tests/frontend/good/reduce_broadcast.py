"""Reductions without keepdims keep the partition axis: the reciprocal of a row sum broadcasts along
the free axis, and nisa.tensor_reduce / nl.max / nl.mean over one or several free axes."""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def reduce_shapes(a, c):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    e = nl.exp(nl.load(a))
    sum_res = nl.sum(e, axis=1)
    inv = (1.0 / sum_res).broadcast_to((128, 512))
    y = nl.multiply(e, inv)
    row_max = nl.max(y, axis=[1])
    centred = nl.subtract(y, row_max)
    row_mean = nl.mean(centred, axis=(-1,))
    neg_min = nisa.tensor_reduce(nl.min, centred, axis=(1,), negate=True)
    y2 = centred - row_mean + neg_min
    nl.store(out, value=y2)

    cube = nl.load(c)
    both = nisa.tensor_reduce(nl.add, cube, axis=(1, 2))
    last = nl.sum(cube, axis=2)
    kept = nl.sum(cube, axis=[1, 2], keepdims=True)
    spread = nl.add(last, both)
    return out
