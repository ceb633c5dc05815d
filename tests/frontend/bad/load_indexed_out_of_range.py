# expect: kernel_error: index 2 is out of bounds for a dimension of size 2
# args: a=256x512:bfloat16
# flags: --no-replicate
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    # The first iteration stores the view's template, the second indexes past the blocks.
    t = nl.ndarray((2, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
    i = nl.mgrid[0:128, 0:512]
    for b in nl.sequential_range(2):
        t[b + 1, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])  # ERROR
    return a
