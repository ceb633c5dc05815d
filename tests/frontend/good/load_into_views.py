"""`t[...] = nl.load(src)` into whole tiles, arange views, slices, an HBM tensor and in a loop."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def edge(a, b):
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    big = nl.ndarray((128, 128), dtype=a.dtype, buffer=nl.sbuf)
    ip = nl.arange(128)[:, None]
    jf = nl.arange(64)[None, :]
    half = big[ip, jf]
    half[...] = nl.load(a)
    big[:, 64:128] = nl.load(b)
    t = nl.ndarray((128, 64), dtype=nl.bfloat16, buffer=nl.sbuf)
    t[...] = nl.load(a)
    out[...] = nl.load(a)
    u = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
    for i in nl.affine_range(2):
        u[...] = nl.load(
            a[0:128, 0:64])
        v = nl.load(a)
        v[...] = nl.load(b)
    return out
