# expect: kernel_error: index expression reaches [300, 555] but the dimension of t has size 512
# args: a=512x512:float32
# flags: --no-replicate
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    # The blocks[a, b, i.p, i.x] form: b = 0 stores the template, b = 1 reaches past the free size.
    t = nl.ndarray((2, 2, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
    i = nl.mgrid[0:128, 0:512]
    h = nl.mgrid[0:128, 0:256]
    for c in nl.affine_range(2):
        for b in nl.affine_range(2):
            t[c, b, i.p, i.x] = nl.load(a[(c * 2 + b) * 128 + i.p, i.x])
    for b in nl.sequential_range(2):
        u = nl.exp(t[1, b, h.p, b * 300 + h.x])  # ERROR
    return a
