# expect: unsupported: used as a Python bool
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a)
    if t:  # ERROR
        pass
    return a
