# expect: unsupported: joined with '|'
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    t = nl.load(a[i_p, i_f], mask=(i_p < 64) | (i_f < 5))  # ERROR
    return a
