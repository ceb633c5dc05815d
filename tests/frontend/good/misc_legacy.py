"""Assorted legacy constructs: par_dim blocks, nl.matmul without transpose_x, reductions, activations."""
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def misc(a, w):
    out = nl.ndarray((128, 1), dtype=np.float32, buffer=nl.shared_hbm)
    blocks = nl.ndarray((2, nl.par_dim(128), 128), dtype=a.dtype, buffer=nl.sbuf)
    for b in nl.sequential_range(2):
        blocks[b] = nl.load(a[:, b * 128:(b + 1) * 128])
    wt = nl.load(w)
    prod = nl.matmul(blocks[1], wt)
    e = nl.exp(prod)
    s = nl.sum(e, axis=1, keepdims=True)
    r = nisa.reciprocal(s)
    i_p = nl.arange(128)[:, None]
    io = nisa.iota(i_p, dtype=nl.int32)
    m = nl.where(e > 0.5, e, 0.0)
    mx = nl.max(m, axis=[1], keepdims=True)
    nl.store(out, value=r * mx)
    return out
