# expect: unsupported: unsupported NKI call nl.softmax_fast at unsupported_nl.py:
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a)
    u = nl.softmax_fast(t)  # ERROR
    return a
