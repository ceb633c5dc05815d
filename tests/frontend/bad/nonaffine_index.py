# expect: unsupported: non-affine index expression
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    i_p = nl.arange(128)[:, None]
    t = nl.load(a[i_p // 2, 0:512])  # ERROR
    return a
