# expect: kernel_error: slice 0:600 is out of bounds
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a)
    u = nl.exp(t[0:128, 0:600])  # ERROR
    return a
