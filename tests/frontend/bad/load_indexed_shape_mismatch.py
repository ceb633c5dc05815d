# expect: kernel_error: shape mismatch in assignment
# args: a=256x512:bfloat16
# flags: --no-replicate
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    # `t[key] = nl.load(src)` with a key that calls nothing: recorded without a temporary tile (pending.py).
    t = nl.ndarray((2, nl.par_dim(128), 256), dtype=a.dtype, buffer=nl.sbuf)
    i = nl.mgrid[0:128, 0:512]
    j = nl.mgrid[0:128, 0:256]
    for b in nl.affine_range(2):
        t[b, j.p, j.x] = nl.load(a[b * 128 + i.p, i.x])  # ERROR
    return a
