# expect: kernel_error: index expression reaches [300, 555] but the dimension of t has size 512
# args: a=512x512:float32
# flags: --no-replicate
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    # b = 0 stores the view's template (in bounds), b = 1 reaches past the free size: the op raises.
    t = nl.ndarray((4, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
    i = nl.mgrid[0:128, 0:512]
    h = nl.mgrid[0:128, 0:256]
    for b in nl.affine_range(4):
        t[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])
    for b in nl.sequential_range(2):
        u = nl.exp(t[b, h.p, b * 300 + h.x])  # ERROR
    return a
